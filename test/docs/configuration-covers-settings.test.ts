/** docs/configuration.md describes every setting a caller may pass: a new AgentInput field without a row fails here. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentInput } from '../../src/domain';
import { ROOT } from './doc-snippets';

/** Set by the run itself or by a parent run, never by callers (their comments say so). */
const SET_BY_THE_RUN = new Set(['delegation', 'continued', 'fork', 'guardrailSpecs']);

describe('docs/configuration.md', () => {
  it('has a row for every AgentInput field callers set', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8');
    const rows = doc.split('\n').filter((line) => line.startsWith('| `'));
    const documented = (field: string) => rows.some((row) => row.split('|')[1]?.includes(`\`${field}\``));
    const missing = Object.keys(AgentInput.shape).filter((field) => !SET_BY_THE_RUN.has(field) && !documented(field));
    expect(missing).toEqual([]);
    // The check can fail: a made-up field has no row.
    expect(documented('notASetting')).toBe(false);
  });
});
