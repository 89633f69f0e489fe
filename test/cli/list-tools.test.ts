import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { formatToolTable, toolRow } from '../../src/cli/commands/operations/list-tools';
import { createScriptedModel } from '../../src/activities/models/scripted-model';
import { ModelRegistry } from '../../src/domain';
import { createLlmTool } from '../../src/tools/builtin/llm';
import { defineTool } from '../../src/tools/define-tool';
import { toToolSpec } from '../../src/tools/tool-registry';

const read = defineTool({
  name: 'read_ledger',
  type: 'database',
  description: 'Reads the ledger',
  input: z.object({}),
  effects: 'none',
  execute: () => 1,
});
const write = defineTool({
  name: 'write_ledger',
  type: 'database',
  description: 'Writes\nthe ledger',
  input: z.object({}),
  requiredRoles: ['finance'],
  execute: () => 1,
});
const ruled = defineTool({
  name: 'pay',
  description: 'Pays',
  input: z.object({ amount: z.number() }),
  approval: { anyOf: [{ when: 'above', field: 'amount', threshold: 100 }] },
  execute: () => 1,
});

describe('thoughtline tools', () => {
  it('shows each tool with its type, source, read-only flag, approval default and roles', () => {
    const rows = [toolRow(read, 'built-in'), toolRow(write, 'your module'), toolRow(ruled, 'mcp:pay')];
    expect(rows.map((r) => [r.name, r.readOnly, r.approval])).toEqual([
      ['read_ledger', true, 'never'],
      // A write-like database tool needs approval unless it says otherwise (defineTool's default).
      ['write_ledger', false, 'always'],
      ['pay', false, 'rules (1)'],
    ]);
    const table = formatToolTable(rows).split('\n');
    expect(table[0]).toMatch(/^NAME\s+TYPE\s+SOURCE\s+READ-ONLY\s+APPROVAL\s+ROLES$/);
    expect(table[2]).toMatch(/^write_ledger\s+database\s+your module\s+no\s+always\s+finance$/);
    // Descriptions on one line each, whitespace folded.
    expect(table).toContain('write_ledger: Writes the ledger');
    expect(formatToolTable([])).toBe('No tools.\n');
  });

  it("lists ask_model's models with tier and price, from the definition and from a served spec alike", () => {
    const registry = ModelRegistry.parse({
      models: {
        strong: { provider: 'scripted', model: 'claude-sonnet-4-6', tier: 'high' },
        local: { provider: 'scripted', model: 'llama3.1:8b' },
      },
    });
    const ask = createLlmTool({ registry, providers: { scripted: createScriptedModel([]) } });
    const lines = [
      '  model strong (claude-sonnet-4-6; tier high; $3/$15 per Mtok in/out)',
      '  model local (llama3.1:8b; price unknown)',
    ];
    for (const row of [toolRow(ask, 'built-in'), toolRow(toToolSpec(ask), 'mcp:models')]) {
      const table = formatToolTable([row]).split('\n');
      expect(table.slice(4, 6)).toEqual(lines);
    }
    expect(toolRow(read, 'built-in').models).toEqual([]);
  });
});
