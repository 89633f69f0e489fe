import { describe, expect, it } from 'vitest';
import { renderTenantUsage } from '../../src/cli/commands/store-and-audit/usage-table';
import type { TenantUsage } from '../../src/domain/store';

const zero = { runs: 0, modelCalls: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
const usage: TenantUsage = {
  tenant: 'acme',
  from: '2026-11-19T00:00:00.000Z',
  to: '2026-11-26T00:00:00.000Z',
  totals: { runs: 3, modelCalls: 6, toolCalls: 3, inputTokens: 12_345, outputTokens: 678, costUsd: 0.0144 },
  byAgent: [
    { agentName: 'alpha', runs: 2, modelCalls: 3, toolCalls: 1, inputTokens: 12_000, outputTokens: 600, costUsd: 0.01 },
    {
      agentName: 'b'.repeat(60),
      runs: 1,
      modelCalls: 3,
      toolCalls: 2,
      inputTokens: 345,
      outputTokens: 78,
      costUsd: 0.0044,
    },
  ],
  byModel: [{ model: 'sonnet', runs: 3, modelCalls: 6, inputTokens: 12_345, outputTokens: 678, costUsd: 0.0144 }],
};

describe("usage's table", () => {
  it('shows the range, the totals, by agent and by model, aligned, long names cut', () => {
    const lines = renderTenantUsage(usage).split('\n');
    expect(lines[0]).toBe('Tenant acme: runs started from 2026-11-19T00:00:00.000Z until 2026-11-26T00:00:00.000Z');
    expect(lines[2]).toMatch(/^total\s+runs\s+model calls\s+tool calls\s+input tokens\s+output tokens\s+cost \(USD\)$/);
    expect(lines[3]).toMatch(/^all agents\s+3\s+6\s+3\s+12,345\s+678\s+0\.014400$/);
    expect(lines.find((l) => l.startsWith('alpha'))).toMatch(/\s2\s+3\s+1\s+12,000\s+600\s+0\.010000$/);
    expect(lines.find((l) => l.startsWith('bbb'))).toMatch(new RegExp(`^${'b'.repeat(39)}… `));
    // Tool calls do not apply by model.
    expect(lines.find((l) => l.startsWith('sonnet'))).toMatch(/^sonnet\s+3\s+6\s+-\s+12,345\s+678\s+0\.014400$/);
    // Every table's rows are as wide as its header: the columns line up.
    const header = lines.findIndex((l) => l.startsWith('agent '));
    const agentTable = lines.slice(header, header + 3);
    expect(agentTable).toHaveLength(3);
    expect(new Set(agentTable.map((l) => l.length)).size).toBe(1);
  });

  it('says when the tenant ran nothing in the range', () => {
    const empty = renderTenantUsage({ ...usage, totals: zero, byAgent: [], byModel: [] });
    expect(empty).toContain('No runs in this range.');
    expect(empty).not.toContain('agent ');
  });
});
