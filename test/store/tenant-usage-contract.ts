import { afterEach, describe, expect, it } from 'vitest';
import { ReasoningChain } from '../../src/domain/chain/chain';
import { TenantUsage } from '../../src/domain/store';
import type { ChainStore } from '../../src/store/chain-store';
import { UNKNOWN_MODEL } from '../../src/store/usage/tenant-usage-sql';
import { runUpdateOf, sampleChain, testStep } from './store-test-chains';

const full = { level: 'full' } as const;
const tokens = (inputTokens: number, outputTokens: number) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});

/**
 * A run whose provider answers under a dated name (its reply billed to the model the call asked
 * for), an LLM tool whose call names no model (its reply's model is billed), a costed thought
 * with no model anywhere (billed as unknown, never dropped), a question and the loop's finish.
 */
function mixedChain(runId: string, tenant: string, startedAt: string): ReasoningChain {
  const sample = sampleChain(runId, { tenant, startedAt, agentName: 'y' });
  return ReasoningChain.parse({
    ...sample,
    approvals: [],
    steps: [
      testStep(1, full, {
        type: 'tool_call',
        model: 'sonnet',
        toolCall: { toolType: 'llm', toolName: 'sonnet', arguments: {}, correlationId: 'm1' },
      }),
      testStep(2, full, {
        type: 'tool_result',
        model: 'sonnet-2026-01-01',
        usage: tokens(1_000, 200),
        costUsd: 0.01,
        toolResult: { correlationId: 'm1', success: true, result: { text: 'use the tool' }, durationMs: 1 },
      }),
      testStep(3, full, {
        type: 'tool_call',
        toolCall: { toolType: 'llm', toolName: 'second_opinion', arguments: { q: 'x' }, correlationId: 't1' },
      }),
      testStep(4, full, {
        type: 'tool_result',
        model: 'haiku',
        usage: tokens(50, 5),
        costUsd: 0.001,
        toolResult: { correlationId: 't1', success: true, result: 'fine', durationMs: 1 },
      }),
      testStep(5, full, { type: 'thinking', thought: 'costed', usage: tokens(3, 1), costUsd: 0.002 }),
      // A question to a person is a call; the loop's finish (custom, 0 ms) is not.
      testStep(6, full, {
        type: 'tool_call',
        toolCall: { toolType: 'custom', toolName: 'ask_person', arguments: { question: 'ok?' }, correlationId: 'q1' },
      }),
      testStep(7, full, {
        type: 'tool_result',
        toolResult: { correlationId: 'q1', success: true, result: 'yes', durationMs: 1_500 },
      }),
      testStep(8, full, {
        type: 'tool_call',
        toolCall: { toolType: 'custom', toolName: 'finish', arguments: { result: 'done' }, correlationId: 'f1' },
      }),
      testStep(9, full, {
        type: 'tool_result',
        toolResult: { correlationId: 'f1', success: true, result: 'done', durationMs: 0 },
      }),
      testStep(10, full, { type: 'synthesis', synthesis: { sources: [], conclusion: 'done' } }),
    ],
  });
}

/** ChainStore.tenantUsage against each database: `open()` gives a store on a fresh, empty database. */
export function tenantUsageContract(name: string, open: () => Promise<ChainStore>): void {
  describe(`ChainStore.tenantUsage: ${name}`, () => {
    const opened: ChainStore[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });
    const storeWith = async (...chains: ReasoningChain[]) => {
      const store = await open();
      opened.push(store);
      for (const chain of chains) {
        await store.putRun(runUpdateOf(chain));
        await store.putSteps(chain.chainId, chain.steps);
      }
      return store;
    };

    it("sums one tenant's runs in the range: totals, by agent, by model", async () => {
      const store = await storeWith(
        // 23:30 at -02:00 is 01:30 UTC on Feb 2: inside the range.
        sampleChain('a', { tenant: 'T', startedAt: '2026-02-01T23:30:00-02:00', agentName: 'x' }),
        sampleChain('b', { tenant: 'T', startedAt: '2026-02-02T05:00:00Z', agentName: 'x' }),
        mixedChain('c', 'T', '2026-02-02T06:00:00Z'),
        // Left out: another tenant, no tenant, before the range, at its (open) end.
        sampleChain('d', { tenant: 'U', startedAt: '2026-02-02T05:00:00Z', agentName: 'x' }),
        sampleChain('e', { startedAt: '2026-02-02T05:00:00Z', agentName: 'x' }),
        sampleChain('f', { tenant: 'T', startedAt: '2026-02-01T23:59:59Z', agentName: 'x' }),
        sampleChain('g', { tenant: 'T', startedAt: '2026-02-03T00:00:00Z', agentName: 'x' }),
      );
      const usage = await store.tenantUsage('T', '2026-02-02T00:00:00Z', '2026-02-03T00:00:00.000Z');
      expect(TenantUsage.parse(usage)).toEqual(usage);
      // Each sample run: one model call (claude-x, 105 in, 27 out, $0.75) and three tool calls.
      const x = { runs: 2, modelCalls: 2, toolCalls: 6, inputTokens: 210, outputTokens: 54, costUsd: 1.5 };
      const y = { runs: 1, modelCalls: 1, toolCalls: 2, inputTokens: 1_053, outputTokens: 206, costUsd: 0.013 };
      expect(usage).toEqual({
        tenant: 'T',
        from: '2026-02-02T00:00:00.000Z',
        to: '2026-02-03T00:00:00.000Z',
        totals: {
          runs: 3,
          modelCalls: 3,
          toolCalls: 8,
          inputTokens: 1_263,
          outputTokens: 260,
          costUsd: expect.closeTo(1.513, 9),
        },
        byAgent: [
          { agentName: 'x', ...x, costUsd: expect.closeTo(1.5, 9) },
          { agentName: 'y', ...y, costUsd: expect.closeTo(0.013, 9) },
        ],
        byModel: [
          {
            model: UNKNOWN_MODEL,
            runs: 1,
            modelCalls: 0,
            inputTokens: 3,
            outputTokens: 1,
            costUsd: expect.closeTo(0.002, 9),
          },
          {
            model: 'claude-x',
            runs: 2,
            modelCalls: 2,
            inputTokens: 210,
            outputTokens: 54,
            costUsd: expect.closeTo(1.5, 9),
          },
          {
            model: 'haiku',
            runs: 1,
            modelCalls: 0,
            inputTokens: 50,
            outputTokens: 5,
            costUsd: expect.closeTo(0.001, 9),
          },
          {
            model: 'sonnet',
            runs: 1,
            modelCalls: 1,
            inputTokens: 1_000,
            outputTokens: 200,
            costUsd: expect.closeTo(0.01, 9),
          },
        ],
      });
      // By model adds up to the totals: no spend is dropped or counted twice.
      const sum = (key: 'inputTokens' | 'outputTokens' | 'modelCalls') =>
        usage.byModel.reduce((total, row) => total + row[key], 0);
      expect([sum('inputTokens'), sum('outputTokens'), sum('modelCalls')]).toEqual([1_263, 260, 3]);
      // The other tenant sees only its own run.
      const other = await store.tenantUsage('U', '2026-02-02T00:00:00Z', '2026-02-03T00:00:00Z');
      expect(other.totals).toMatchObject({ runs: 1, modelCalls: 1, toolCalls: 3, inputTokens: 105 });
      expect(other.byAgent.map((a) => a.agentName)).toEqual(['x']);
    });

    it('is all zeros for a tenant with no runs in the range, and counts a run with no steps', async () => {
      const bare = sampleChain('bare', { tenant: 'T', startedAt: '2026-02-02T01:00:00Z', agentName: 'z' });
      const store = await storeWith();
      await store.putRun(runUpdateOf(bare));
      const zero = { runs: 0, modelCalls: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
      expect(await store.tenantUsage('nobody', '2026-02-02T00:00:00Z', '2026-02-03T00:00:00Z')).toEqual({
        tenant: 'nobody',
        from: '2026-02-02T00:00:00.000Z',
        to: '2026-02-03T00:00:00.000Z',
        totals: zero,
        byAgent: [],
        byModel: [],
      });
      const usage = await store.tenantUsage('T', '2026-02-02T00:00:00Z', '2026-02-03T00:00:00Z');
      expect(usage.totals).toEqual({ ...zero, runs: 1 });
      expect(usage.byAgent).toEqual([{ agentName: 'z', ...zero, runs: 1 }]);
      expect(usage.byModel).toEqual([]);
    });

    it('treats the tenant as a value, never as SQL', async () => {
      const store = await storeWith(sampleChain('a', { tenant: 'T', startedAt: '2026-02-02T01:00:00Z' }));
      const usage = await store.tenantUsage("T' OR '1'='1", '2026-02-02T00:00:00Z', '2026-02-03T00:00:00Z');
      expect(usage.totals.runs).toBe(0);
    });
  });
}
