import { describe, expect, it } from 'vitest';
import { ContinuedState, type ReasoningStep, type ToolSpec } from '../../../../src/domain';
import { ChainBuilder } from '../../../../src/workflows/core/chain/chain-builder';
import { CARRIED_RESULT_CHARS, carryOver } from '../../../../src/workflows/run/handover/carry-over';
import { RunState } from '../../../../src/workflows/core/state/run-state';
import { testChainBuilder } from '../../../helpers/test-chain-builder';

const full = { level: 'full' } as const;
const marker = (length: number, runId: string) =>
  `…[${length} characters; shortened at continue-as-new, in full in run ${runId}]`;
const long = (n: number, c = 'x') => c.repeat(n);

const tool: ToolSpec = {
  name: 'lookup',
  type: 'external',
  description: 'Looks things up',
  inputSchema: { type: 'object', properties: {} },
  timeoutMs: 30_000,
  retry: { maximumAttempts: 3, initialIntervalMs: 1_000, backoffCoefficient: 2 },
  visibility: 'full',
  readOnly: true,
};

function addTool(
  chain: ChainBuilder,
  id: string,
  result: unknown,
  extra: { success?: boolean; error?: string } = {},
): void {
  chain.toolCall({ toolType: 'external', toolName: 'lookup', arguments: { id }, correlationId: id }, full);
  chain.toolResult(
    {
      correlationId: id,
      success: extra.success ?? true,
      result,
      durationMs: 1,
      ...(extra.error ? { error: extra.error } : {}),
    },
    full,
  );
}

const results = (steps: readonly ReasoningStep[]) =>
  Object.fromEntries(
    steps.flatMap((s) => (s.type === 'tool_result' ? [[s.toolResult.correlationId, s.toolResult.result]] : [])),
  );

/** A run with one of everything: long and short results, a model reply, thinking, a failure. */
function firstRun() {
  const chain = testChainBuilder();
  chain.iteration = 1;
  chain.thinking(long(3_000, 't'), full);
  chain.toolCall({ toolType: 'llm', toolName: 'm', arguments: { messages: 1 }, correlationId: 'llm1' }, full, {
    model: 'm',
  });
  chain.toolResult(
    {
      correlationId: 'llm1',
      success: true,
      result: { stopReason: 'tool_use', text: long(4_000, 'm'), toolCalls: [] },
      durationMs: 1,
    },
    full,
    { model: 'm' },
  );
  addTool(chain, 'long', long(5_000, 'a'));
  addTool(chain, 'short', 'short result');
  addTool(chain, 'exact', long(CARRIED_RESULT_CHARS, 'e'));
  addTool(chain, 'oneOver', long(CARRIED_RESULT_CHARS + 1, 'o'));
  addTool(chain, 'object', { rows: Array.from({ length: 200 }, (_, i) => ({ i })) });
  addTool(chain, 'smallObject', { ok: true });
  addTool(chain, 'failed', null, { success: false, error: long(2_000, 'f') });
  const fresh = new RunState('m', [{ role: 'user', content: [{ type: 'text', text: 'task' }] }], 1_000).carried('none');
  const state = RunState.restore({
    ...fresh,
    previousRunIds: [],
    iteration: 3,
    modelCalls: 4,
    toolCalls: 5,
    cachedCalls: 2,
    formatErrors: 1,
    costUsd: 0.25,
  });
  state.remember({
    key: 'lookup#0',
    stepId: 'id-1',
    content: long(5_000, 'a'),
    isError: false,
    result: long(5_000, 'a'),
  });
  return { chain, state };
}

describe('carryOver', () => {
  it('shortens tool results over CARRIED_RESULT_CHARS with a marker naming the run, and leaves the rest alone', () => {
    const { chain, state } = firstRun();
    const carried = carryOver(state, chain.snapshot(), [tool], 'run-1');
    const r = results(carried.chain.steps);

    expect(r['long']).toBe(long(CARRIED_RESULT_CHARS, 'a') + marker(5_000, 'run-1'));
    expect(r['oneOver']).toBe(long(CARRIED_RESULT_CHARS, 'o') + marker(CARRIED_RESULT_CHARS + 1, 'run-1'));
    // A structured result is measured, and cut, as its JSON text.
    const json = JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => ({ i })) });
    expect(json.length).toBeGreaterThan(CARRIED_RESULT_CHARS);
    expect(r['object']).toBe(json.slice(0, CARRIED_RESULT_CHARS) + marker(json.length, 'run-1'));

    // Short results (exactly the limit included) keep their value and type.
    expect(r['short']).toBe('short result');
    expect(r['exact']).toBe(long(CARRIED_RESULT_CHARS, 'e'));
    expect(r['smallObject']).toEqual({ ok: true });
    expect(r['failed']).toBeNull();

    // Model replies, thinking and every other step are carried untouched.
    const before = chain.snapshot().steps;
    const after = carried.chain.steps;
    expect(after).toHaveLength(before.length);
    for (const [i, step] of after.entries()) {
      const changed =
        step.type === 'tool_result' && ['long', 'oneOver', 'object'].includes(step.toolResult.correlationId);
      if (!changed) expect(step).toEqual(before[i]);
    }
    expect(r['llm1']).toEqual({ stopReason: 'tool_use', text: long(4_000, 'm'), toolCalls: [] });
  });

  it('keeps the other fields of a shortened step', () => {
    const { chain, state } = firstRun();
    const carried = carryOver(state, chain.snapshot(), [tool], 'run-1');
    const before = chain
      .snapshot()
      .steps.find((s) => s.type === 'tool_result' && s.toolResult.correlationId === 'long')!;
    const after = carried.chain.steps.find((s) => s.type === 'tool_result' && s.toolResult.correlationId === 'long')!;
    expect(after.type === 'tool_result' && { ...after, toolResult: { ...after.toolResult, result: 'x' } }).toEqual(
      before.type === 'tool_result' && { ...before, toolResult: { ...before.toolResult, result: 'x' } },
    );
  });

  it('does not change the chain it was given', () => {
    const { chain, state } = firstRun();
    const snapshot = chain.snapshot();
    const copy = structuredClone(snapshot);
    carryOver(state, snapshot, [tool], 'run-1');
    expect(snapshot).toEqual(copy);
    expect(results(chain.steps)['long']).toBe(long(5_000, 'a'));
  });

  it('carries the ledger, counters, conversation and cache, and parses as ContinuedState', () => {
    const { chain, state } = firstRun();
    const carried = carryOver(state, chain.snapshot(), [tool], 'run-1');
    expect(carried).toMatchObject({
      tools: [tool],
      messages: state.messages,
      iteration: 3,
      modelCalls: 4,
      toolCalls: 5,
      cachedCalls: 2,
      formatErrors: 1,
      costUsd: 0.25,
      lastModel: 'm',
      startedAtMs: 1_000,
      readOnlyCache: [{ key: 'lookup#0', stepId: 'id-1', content: long(5_000, 'a'), isError: false }],
      previousRunIds: ['run-1'],
    });
    expect('cancelRequested' in carried).toBe(false);
    expect(() => ContinuedState.parse(carried)).not.toThrow();

    state.requestCancel('user asked');
    expect(carryOver(state, chain.snapshot(), [tool], 'run-1').cancelRequested).toBe('user asked');
  });

  it('does not shorten again on a second handover: the marker keeps naming the first run, and run ids accumulate', () => {
    const { chain, state } = firstRun();
    const first = carryOver(state, chain.snapshot(), [tool], 'run-1');

    // The next run restores the state and adds a long result of its own.
    const state2 = RunState.restore(ContinuedState.parse(first));
    const chain2 = new ChainBuilder(
      { now: () => '2026-01-01T01:00:00.000Z', newId: () => 'id-run2' },
      { restore: first.chain },
    );
    chain2.iteration = 4;
    addTool(chain2, 'later', long(2_000, 'l'));
    const second = carryOver(state2, chain2.snapshot(), first.tools, 'run-2');

    const r1 = results(first.chain.steps);
    const r2 = results(second.chain.steps);
    expect(r2['long']).toBe(r1['long']);
    expect(r2['long']).toBe(long(CARRIED_RESULT_CHARS, 'a') + marker(5_000, 'run-1'));
    expect(r2['object']).toBe(r1['object']);
    expect(r2['oneOver']).toBe(r1['oneOver']);
    expect(
      JSON.stringify(
        second.chain.steps.filter((s) => s.type === 'tool_result' && s.toolResult.correlationId !== 'later'),
      ),
    ).not.toContain('run-2');
    // The new long result names the run that holds it in full.
    expect(r2['later']).toBe(long(CARRIED_RESULT_CHARS, 'l') + marker(2_000, 'run-2'));
    expect(second.previousRunIds).toEqual(['run-1', 'run-2']);

    // A third handover changes nothing already shortened.
    const third = carryOver(RunState.restore(second), second.chain, second.tools, 'run-3');
    expect(results(third.chain.steps)).toEqual(r2);
    expect(third.previousRunIds).toEqual(['run-1', 'run-2', 'run-3']);
  });

  it('keeps the carried chain bounded however large the results were', () => {
    const chain = testChainBuilder();
    for (let i = 0; i < 20; i++) addTool(chain, `r${i}`, long(50_000, 'z'));
    const carried = carryOver(new RunState('m', [], 0), chain.snapshot(), [], 'run-1');
    const sizes = carried.chain.steps.flatMap((s) =>
      s.type === 'tool_result' ? [String(s.toolResult.result).length] : [],
    );
    expect(Math.max(...sizes)).toBe(CARRIED_RESULT_CHARS + marker(50_000, 'run-1').length);
    expect(JSON.stringify(carried.chain).length).toBeLessThan(40_000);
  });

  it('carries at most the last 100 run ids and counts the rest, so continuations stays right', () => {
    let state = new RunState('m', [], 0);
    const handOver = (n: number) => {
      for (let i = 1; i <= n; i++)
        state = RunState.restore(
          ContinuedState.parse(carryOver(state, testChainBuilder().snapshot(), [], `run-${state.continuations + 1}`)),
        );
    };
    handOver(100);
    expect(state.previousRunIds).toHaveLength(100);
    expect(state.continuations).toBe(100);
    handOver(1);
    expect(state.previousRunIds).toHaveLength(100);
    expect(state.previousRunIds[0]).toBe('run-2');
    expect(state.previousRunIds.at(-1)).toBe('run-101');
    expect(state.continuations).toBe(101);
    handOver(49);
    expect(state.previousRunIds[0]).toBe('run-51');
    expect(state.continuations).toBe(150);
  });
});
