import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mcpToolSpec } from '../../../src/activities/mcp/mcp-tool-spec';
import { MAX_RETURNS_CHARS, toolEffects, type ToolSpec } from '../../../src/domain';
import { auditedArguments, auditedResult } from '../../../src/domain/tools/tool-audit';
import { defineTool, InvalidToolDefinitionError } from '../../../src/tools/define-tool';
import { toToolSpec } from '../../../src/tools/tool-registry';
import { toModelTool } from '../../../src/domain/tools/offered-tool';
import { withAlternatives } from '../../../src/workflows/tools/alternatives';
import { createToolCallValidator } from '../../../src/workflows/tools/validate-tool-call';
import { reactTextSystemPrompt } from '../../../src/workflows/react-text/react-text-prompt';

const base = { description: 'Sends money', input: z.object({ to: z.string() }), execute: () => 'sent' };

describe('defineTool: tool contracts', () => {
  it('defaults to effects idempotent, audit level full, no returns and no alternatives', () => {
    const tool = defineTool({ name: 'pay', ...base });
    expect(tool).toMatchObject({ effects: 'idempotent', auditLevel: 'full', alternatives: [] });
    expect(tool.returns).toBeUndefined();
    expect(toToolSpec(tool)).toMatchObject({ effects: 'idempotent', readOnly: false });
  });

  it('carries every contract option into the spec the workflow records', () => {
    const tool = defineTool({
      name: 'pay',
      ...base,
      effects: 'once',
      returns: 'The transfer id',
      auditLevel: 'basic',
      alternatives: ['pay_later', 'quote'],
      validate: () => undefined,
      reconcile: () => ({ happened: false }),
    });
    expect(toToolSpec(tool)).toMatchObject({
      effects: 'once',
      readOnly: false,
      returns: 'The transfer id',
      auditLevel: 'basic',
      alternatives: ['pay_later', 'quote'],
      validates: true,
      reconciles: true,
    });
    const reader = toToolSpec(defineTool({ name: 'look', ...base, effects: 'none' }));
    expect(reader).toMatchObject({ effects: 'none', readOnly: true });
    expect(reader).not.toHaveProperty('validates');
  });

  it('renders a zod returns schema as compact JSON Schema, once, at definition time', () => {
    const tool = defineTool({
      name: 'pay',
      ...base,
      returns: z.object({ id: z.string().describe('transfer id'), amount: z.number() }),
    });
    expect(JSON.parse(tool.returns!)).toEqual({
      type: 'object',
      properties: { id: { type: 'string', description: 'transfer id' }, amount: { type: 'number' } },
      required: ['id', 'amount'],
      additionalProperties: false,
    });
    expect(tool.returns).not.toContain('$schema');
  });

  it('refuses returns that are empty or longer than a spec carries, reconcile without once, a local once tool, and bad alternatives', () => {
    expect(() => defineTool({ name: 'pay', ...base, returns: '  ' })).toThrow(InvalidToolDefinitionError);
    expect(() => defineTool({ name: 'pay', ...base, returns: 'x'.repeat(MAX_RETURNS_CHARS + 1) })).toThrow(
      /at most 2000/,
    );
    expect(() => defineTool({ name: 'pay', ...base, reconcile: () => ({ happened: true }) })).toThrow(
      /reconcile is for tools with effects 'once'/,
    );
    expect(() => defineTool({ name: 'pay', ...base, effects: 'once', local: true })).toThrow(
      /a once tool cannot be local/,
    );
    expect(() => defineTool({ name: 'pay', ...base, alternatives: ['pay'] })).toThrow(/another tool's name/);
    expect(() => defineTool({ name: 'pay', ...base, alternatives: ['has space'] })).toThrow(InvalidToolDefinitionError);
    expect(() => defineTool({ name: 'pay', ...base, alternatives: ['a', 'b', 'c', 'd', 'e', 'f'] })).toThrow(
      /at most 5 alternatives/,
    );
  });

  it('needs approval by default for a write-like tool unless its effects are none', () => {
    const write = { ...base, type: 'database' as const };
    expect(defineTool({ name: 'db_write', ...write }).approval).toBe('always');
    expect(defineTool({ name: 'db_write', ...write, effects: 'once' }).approval).toBe('always');
    expect(defineTool({ name: 'db_read', ...write, effects: 'none' }).approval).toBe('never');
  });

  it('reads a spec recorded before effects existed from readOnly', () => {
    expect(toolEffects({ readOnly: true })).toBe('none');
    expect(toolEffects({ readOnly: false })).toBe('idempotent');
    expect(toolEffects({})).toBe('idempotent');
    expect(toolEffects({ effects: 'once', readOnly: false })).toBe('once');
  });
});

describe('returns in both prompts', () => {
  const spec = toToolSpec(defineTool({ name: 'pay', ...base, returns: 'The transfer id, e.g. "tr_1"' }));

  it('ends a native tool description with Returns', () => {
    expect(toModelTool(spec).description).toBe('Sends money\nReturns: The transfer id, e.g. "tr_1"');
    const plain = toToolSpec(defineTool({ name: 'pay', ...base }));
    expect(toModelTool(plain).description).toBe('Sends money');
  });

  it('is shown under the tool in the text ReAct prompt', () => {
    const prompt = reactTextSystemPrompt({ tools: [spec] });
    expect(prompt).toContain(
      'pay: Sends money\n  Parameters:\n    - to (string, required)\n  Returns: The transfer id, e.g. "tr_1"',
    );
  });

  it("comes from an MCP tool's outputSchema", () => {
    const stdio = { command: 'node', args: [], env: {} };
    const outputSchema = { type: 'object' as const, properties: { hits: { type: 'number' } } };
    const mcp = mcpToolSpec('s', stdio, {
      name: 'search',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      outputSchema,
    });
    expect(JSON.parse(mcp.returns!)).toEqual(outputSchema);
    expect(mcp.effects).toBe('idempotent');
    const huge = { type: 'object' as const, properties: { x: { type: 'string', description: 'y'.repeat(3_000) } } };
    const cut = mcpToolSpec('s', stdio, { name: 'search', inputSchema: { type: 'object' }, outputSchema: huge });
    expect(cut.returns).toMatch(/too long to show/);
    expect(mcpToolSpec('s', stdio, { name: 'search', inputSchema: { type: 'object' } }).returns).toBeUndefined();
  });
});

describe('audit levels', () => {
  const spec = (auditLevel?: ToolSpec['auditLevel']) => ({ ...(auditLevel ? { auditLevel } : {}) });
  const shown = {
    correlationId: 'c1',
    success: false,
    result: { iban: 'DE00' },
    error: 'failed for DE00',
    durationMs: 12,
    attempts: 2,
    truncated: true,
  };

  it('full (the default) records everything', () => {
    expect(auditedArguments(spec(), { iban: 'DE00' })).toEqual({ iban: 'DE00' });
    expect(auditedResult(spec('full'), shown)).toEqual(shown);
  });

  it('basic keeps whether it succeeded, time and attempts, but not the content', () => {
    expect(auditedArguments(spec('basic'), { iban: 'DE00' })).toEqual({
      notRecorded: '[not recorded: audit level basic]',
    });
    expect(auditedResult(spec('basic'), shown)).toEqual({
      ...shown,
      result: '[not recorded: audit level basic]',
      error: '[not recorded: audit level basic]',
    });
  });

  it('none keeps only that the call happened and how it ended', () => {
    expect(auditedResult(spec('none'), { ...shown, outcome: 'unknown' })).toEqual({
      correlationId: 'c1',
      success: false,
      result: '[not recorded: audit level none]',
      error: '[not recorded: audit level none]',
      durationMs: 0,
      outcome: 'unknown',
    });
    expect(JSON.stringify(auditedResult(spec('none'), shown))).not.toContain('DE00');
  });
});

describe('alternatives', () => {
  it('end the invalid-arguments observation of a tool that names them', () => {
    const spec = toToolSpec(defineTool({ name: 'pay', ...base, alternatives: ['quote'] }));
    const check = createToolCallValidator([spec], ['finish'])({ type: 'tool_use', id: 't1', name: 'pay', input: {} });
    expect(check.ok).toBe(false);
    expect(!check.ok && check.observation).toMatch(
      /invalid arguments for tool "pay"[\s\S]*\nInstead, you could try: quote\.$/,
    );
    expect(withAlternatives({}, 'failed')).toBe('failed');
  });
});
