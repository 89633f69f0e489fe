import { describe, expect, it } from 'vitest';
import type { AgentResult } from '../../../src/domain/run/agent-result';
import { MAX_ENDING_ERROR, runEnding } from '../../../src/domain/run/run-ending';
import type { TerminationReason } from '../../../src/domain/run/termination';

function result(reason: TerminationReason, extra: Partial<AgentResult> = {}): AgentResult {
  return {
    success: reason === 'success',
    finalAnswer: '',
    terminationReason: reason,
    chain: { runId: 'r', task: 't', status: 'completed', steps: [], startedAt: '2026-11-26T00:00:00Z' } as never,
    usage: { inputTokens: 0, outputTokens: 0 } as never,
    costUsd: 0,
    iterations: 1,
    modelCalls: 1,
    toolCalls: 0,
    formatErrors: 0,
    cachedCalls: 0,
    continuations: 0,
    executionTimeMs: 1,
    ...extra,
  };
}

describe('runEnding', () => {
  it('names a failing result failed, never completed', () => {
    const failure = runEnding({ result: result('failure', { finalAnswer: 'The file does not exist.' }) });
    expect(failure).toMatchObject({ state: 'failed', label: 'failure', tone: 'bad' });
    expect(failure.summary).toBe('failure: The file does not exist.');
    const error = runEnding({
      result: result('error', { error: 'ModelAuthentication: Could not resolve authentication method\nat …' }),
    });
    expect(error).toMatchObject({
      state: 'failed',
      terminationReason: 'error',
      error: expect.stringContaining('ModelAuthentication'),
    });
    expect(error.summary).toBe('error: ModelAuthentication: Could not resolve authentication method');
  });

  it('keeps a cancelled result cancelled and a stop at a limit completed, toned as a limit', () => {
    expect(runEnding({ result: result('cancelled') })).toMatchObject({ state: 'cancelled', tone: 'stopped' });
    for (const reason of ['max_iterations', 'stalled', 'token_budget', 'cost_budget', 'timeout'] as const)
      expect(runEnding({ result: result(reason) })).toMatchObject({
        state: 'completed',
        tone: 'limit',
        summary: reason,
      });
  });

  it('carries the answer with the title every view gives it', () => {
    const ok = runEnding({ result: result('success', { finalAnswer: '42', grounding: 'grounded' }) });
    expect(ok).toMatchObject({
      state: 'completed',
      tone: 'ok',
      answer: '42',
      answerTitle: 'Final answer',
      summary: 'success',
    });
    const partial = runEnding({
      result: result('max_iterations', { finalAnswer: 'so far: 4', grounding: 'grounded' }),
    });
    expect(partial.answerTitle).toBe('Partial answer (max_iterations)');
    expect(runEnding({ result: result('error') }).answer).toBeUndefined();
    const partly = runEnding({
      result: result('success', { finalAnswer: '42 km', grounding: 'partly_grounded', unsupportedClaims: ['42 km'] }),
    });
    expect(partly).toMatchObject({ answerTitle: 'Answer, partly grounded', unsupportedClaims: ['42 km'] });
    expect(ok).not.toHaveProperty('unsupportedClaims');
  });

  it('speaks for a run Temporal ended without a result', () => {
    expect(runEnding({ execution: 'terminated' })).toMatchObject({
      state: 'terminated',
      label: 'terminated',
      summary: 'terminated',
    });
    const failed = runEnding({ execution: 'failed', failure: 'x'.repeat(MAX_ENDING_ERROR * 2) });
    expect(failed.error).toHaveLength(MAX_ENDING_ERROR);
    expect(failed.terminationReason).toBeUndefined();
  });
});

describe('runEnding from a termination reason only', () => {
  it('gives the state, label and tone of the reason, and no answer or error', () => {
    expect(runEnding({ terminationReason: 'error' })).toEqual({
      state: 'failed',
      terminationReason: 'error',
      label: 'error',
      tone: 'bad',
      summary: 'error',
    });
    expect(runEnding({ terminationReason: 'cancelled' }).state).toBe('cancelled');
    expect(runEnding({ terminationReason: 'stalled' })).toMatchObject({ state: 'completed', tone: 'limit' });
  });
});
