import { describe, expect, it } from 'vitest';
import type { ReasoningStep } from '../../src/domain';
import {
  callPurpose,
  EMPTY_TALLY,
  MAX_TALLY,
  modelTimes,
  tallyModelTime,
  timesOfTally,
} from '../../src/domain/chain/model-times';
import { RunStateData } from '../../src/domain/run/continued-state';
import { RunState } from '../../src/workflows/core/state/run-state';
import { stepOf } from '../helpers/chain-helpers';

let n = 0;
/** A run's own model call (the arguments openModelCall records) and its result, in `iteration`. */
function llm(id: string, iteration: number, ms: number, extra: Record<string, unknown> = {}): ReasoningStep[] {
  const args = { provider: 'scripted', maxTokens: 100, messages: 1, tools: [], toolChoice: 'auto', ...extra };
  return [
    {
      ...stepOf(++n, {
        type: 'tool_call',
        toolCall: { toolType: 'llm', toolName: 'm', arguments: args, correlationId: id },
      }),
      iteration,
    },
    {
      ...stepOf(++n, {
        type: 'tool_result',
        toolResult: { correlationId: id, success: true, result: {}, durationMs: ms },
      }),
      iteration,
    },
  ] as ReasoningStep[];
}

describe('planning and reasoning times from the chain', () => {
  it('adds the planner calls and the turns per iteration, by purpose', () => {
    const steps = [
      ...llm('p1', 0, 900, { purpose: 'plan', note: 'plan' }),
      ...llm('p2', 0, 400, { purpose: 'plan', note: 'plan repair' }),
      ...llm('t1', 1, 300, { purpose: 'turn' }),
      ...llm('t2', 2, 500, { purpose: 'turn' }),
      // A retry within iteration 2's turn counts for that iteration.
      ...llm('t3', 2, 700, { purpose: 'turn', note: 'max_tokens: retried with 200' }),
      ...llm('r1', 2, 5_000, { purpose: 'reflection', note: 'reflection at iteration 2' }),
      ...llm('v1', 3, 5_000, { purpose: 'verdict', note: 'observer' }),
      ...llm('t4', 3, 100, { purpose: 'turn' }),
    ];
    expect(modelTimes(steps)).toEqual({
      planningMs: 1_300,
      planningCalls: 2,
      reasoningMs: 1_600,
      reasoningIterations: 3,
      reasoningPerIterationMs: 533,
      slowestIterationMs: 1_200,
    });
  });

  it("reads chains recorded before purposes from the planner's notes; a model tool's calls are not the run's", () => {
    expect(callPurpose({ messages: 1, toolChoice: 'none', note: 'replan' })).toBe('plan');
    expect(callPurpose({ messages: 3, toolChoice: 'auto' })).toBe('turn');
    expect(callPurpose({ messages: 3, toolChoice: 'auto', note: 'fallback from a after: down' })).toBeUndefined();
    // ask_model's own arguments, and a consensus answer: not counted, even with a "purpose" of their own.
    expect(callPurpose({ prompt: 'hi', purpose: 'plan' })).toBeUndefined();
    expect(callPurpose({ model: 'fast', consensusOf: 'c1' })).toBeUndefined();
    const open = llm('t9', 1, 0, { purpose: 'turn' }).slice(0, 1);
    expect(modelTimes(open)).toMatchObject({
      reasoningIterations: 0,
      reasoningPerIterationMs: 0,
      slowestIterationMs: 0,
    });
  });

  it('keeps running totals a retry joins, and counts only the planner and the turns', () => {
    let tally = tallyModelTime(EMPTY_TALLY, 'plan', 0, 900);
    tally = tallyModelTime(tally, 'turn', 1, 300);
    tally = tallyModelTime(tally, 'turn', 1, 200);
    expect(tallyModelTime(tally, 'reflection', 1, 5_000)).toBe(tally);
    expect(tallyModelTime(tally, undefined, 1, 5_000)).toBe(tally);
    tally = tallyModelTime(tally, 'turn', 2, 100);
    expect(timesOfTally(tally)).toEqual({
      planningMs: 900,
      planningCalls: 1,
      reasoningMs: 600,
      reasoningIterations: 2,
      reasoningPerIterationMs: 300,
      slowestIterationMs: 500,
    });
    expect(timesOfTally(EMPTY_TALLY)).toMatchObject({ reasoningIterations: 0, reasoningPerIterationMs: 0 });
  });

  it('stops at MAX_TALLY, and counts a duration it cannot read as 0', () => {
    const full = {
      ...EMPTY_TALLY,
      planningMs: MAX_TALLY - 1,
      planningCalls: MAX_TALLY,
      reasoningMs: MAX_TALLY,
      reasoningIterations: MAX_TALLY,
      lastIteration: 7,
      lastIterationMs: MAX_TALLY - 5,
    };
    const planned = tallyModelTime(full, 'plan', 8, 10);
    expect([planned.planningMs, planned.planningCalls]).toEqual([MAX_TALLY, MAX_TALLY]);
    const sameIteration = tallyModelTime(full, 'turn', 7, Number.MAX_VALUE);
    expect(sameIteration).toMatchObject({
      reasoningMs: MAX_TALLY,
      lastIterationMs: MAX_TALLY,
      slowestIterationMs: MAX_TALLY,
    });
    const next = tallyModelTime(full, 'turn', 8, 1);
    expect(next).toMatchObject({ reasoningIterations: MAX_TALLY, lastIteration: 8, lastIterationMs: 1 });
    expect(Number.isSafeInteger(timesOfTally(next).reasoningPerIterationMs)).toBe(true);
    for (const bad of [Number.NaN, -5, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
      expect(tallyModelTime(EMPTY_TALLY, 'turn', 1, bad)).toMatchObject({ reasoningMs: 0, reasoningIterations: 1 });
    // What the tally holds at its bound still parses as carried state.
    const carried = new RunState('m', [], 0).carried('run-1');
    expect(RunStateData.parse({ ...carried, times: { ...full, slowestIterationMs: MAX_TALLY } }).times).toMatchObject({
      planningCalls: MAX_TALLY,
    });
  });

  it('carries the totals over a handover; state carried before them parses and starts without', () => {
    const state = new RunState('m', [], 0);
    expect(state.times).toBeUndefined();
    state.countModelTime('plan', 0, 700);
    state.countModelTime('turn', 1, 100);
    const { times: _none, ...before } = state.carried('run-1');
    const old = RunState.restore(RunStateData.parse(before));
    expect(old.times).toBeUndefined();
    const next = RunState.restore(RunStateData.parse(JSON.parse(JSON.stringify(state.carried('run-1')))));
    next.countModelTime('turn', 2, 300);
    expect(next.times).toEqual({
      planningMs: 700,
      planningCalls: 1,
      reasoningMs: 400,
      reasoningIterations: 2,
      reasoningPerIterationMs: 200,
      slowestIterationMs: 300,
    });
  });
});
