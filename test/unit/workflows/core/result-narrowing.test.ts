import { describe, expect, it } from 'vitest';
import { MAX_NARROWED_SUMMARY_CHARS, type ToolSpec, type Visibility } from '../../../../src/domain';
import { narrowerRequest } from '../../../../src/tools/narrowed-visibility';
import { narrowedByTool } from '../../../../src/workflows/core/chain/tool-visibility';

const spec = { name: 'read_salary' } as ToolSpec;
const full: Visibility = { level: 'full' };
const summary: Visibility = { level: 'summary', summary: 'Configured line' };
const hidden: Visibility = { level: 'hidden' };

describe('narrowedByTool: the result step is never wider than configured', () => {
  it('narrows full to summary or hidden, and summary to hidden, saying the tool did', () => {
    expect(narrowedByTool(spec, full, { level: 'hidden' })).toEqual({ level: 'hidden', narrowedBy: 'tool' });
    expect(narrowedByTool(spec, full, { level: 'summary', summary: 'Read a salary' })).toEqual({
      level: 'summary',
      summary: 'Read a salary',
      narrowedBy: 'tool',
    });
    expect(narrowedByTool(spec, summary, { level: 'hidden' })).toEqual({ level: 'hidden', narrowedBy: 'tool' });
  });

  it('gives a summary without a line of its own the default line', () => {
    expect(narrowedByTool(spec, full, { level: 'summary' })).toEqual({
      level: 'summary',
      summary: 'Used read_salary',
      narrowedBy: 'tool',
    });
  });

  it('ignores a request no narrower than the configured level, and no request', () => {
    expect(narrowedByTool(spec, hidden, { level: 'summary', summary: 'Wider' })).toBe(hidden);
    expect(narrowedByTool(spec, hidden, { level: 'hidden' })).toBe(hidden);
    expect(narrowedByTool(spec, summary, { level: 'summary', summary: 'Other line' })).toBe(summary);
    expect(narrowedByTool(spec, full, undefined)).toBe(full);
    // A level the workflow cannot read never widens.
    expect(narrowedByTool(spec, summary, { level: 'full' } as never)).toBe(summary);
  });
});

describe('narrowerRequest: what the worker records of narrowVisibility calls', () => {
  const redact = (text: string) => text.replace(/sk-[a-z0-9]+/g, '[REDACTED]');

  it('keeps the narrowest of several calls and ignores full', () => {
    let request = narrowerRequest(undefined, 'full', undefined, redact);
    expect(request).toBeUndefined();
    request = narrowerRequest(request, 'summary', 'A line', redact);
    expect(request).toEqual({ level: 'summary', summary: 'A line' });
    request = narrowerRequest(request, 'hidden', undefined, redact);
    expect(request).toEqual({ level: 'hidden' });
    expect(narrowerRequest(request, 'summary', 'Wider again', redact)).toEqual({ level: 'hidden' });
    expect(narrowerRequest(request, 'full', undefined, redact)).toEqual({ level: 'hidden' });
  });

  it('hides the result when the level cannot be read (fail closed)', () => {
    expect(narrowerRequest(undefined, 'secret', 'x', redact)).toEqual({ level: 'hidden' });
    expect(narrowerRequest(undefined, undefined, undefined, redact)).toEqual({ level: 'hidden' });
  });

  it('redacts the line and cuts it at the limit', () => {
    expect(narrowerRequest(undefined, 'summary', ' Used key sk-abc123 ', redact)).toEqual({
      level: 'summary',
      summary: 'Used key [REDACTED]',
    });
    const atLimit = 'a'.repeat(MAX_NARROWED_SUMMARY_CHARS);
    expect(narrowerRequest(undefined, 'summary', atLimit, redact)?.summary).toBe(atLimit);
    const over = narrowerRequest(undefined, 'summary', `${atLimit}b`, redact)?.summary;
    expect(over).toHaveLength(MAX_NARROWED_SUMMARY_CHARS);
    expect(over?.endsWith('…')).toBe(true);
    expect(narrowerRequest(undefined, 'summary', 42, redact)).toEqual({ level: 'summary' });
  });
});
