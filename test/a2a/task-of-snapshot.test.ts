import { describe, expect, it } from 'vitest';
import type { AgentResult } from '../../src/shared';
import { TASK_STATE, taskOfSnapshot } from '../../src/server/a2a/task-of-snapshot';

/** A result as a run returns it, with only what the mapping reads. */
const result = (over: Partial<AgentResult>): AgentResult =>
  ({
    success: true,
    finalAnswer: 'the answer',
    terminationReason: 'success',
    usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0.25,
    ...over,
  }) as AgentResult;

describe('a run as an A2A task', () => {
  it('maps how a run ended to completed (with the artifact), canceled or failed (with why, and no artifact)', () => {
    const done = taskOfSnapshot({ state: 'ended', runId: 'r1', result: result({}) });
    expect(done.status?.state).toBe(TASK_STATE.completed);
    expect(done.artifacts[0]!.parts[0]!.content).toEqual({ $case: 'text', value: 'the answer' });
    expect(done.metadata?.thoughtline).toEqual({
      runId: 'r1',
      chain: '/v1/runs/r1/chain',
      costUsd: 0.25,
      usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
      terminationReason: 'success',
    });

    const cancelled = taskOfSnapshot({
      state: 'ended',
      runId: 'r2',
      result: result({ success: false, terminationReason: 'cancelled', finalAnswer: 'stopped early' }),
    });
    expect(cancelled.status?.state).toBe(TASK_STATE.canceled);
    expect(cancelled.artifacts).toEqual([]);

    const budget = taskOfSnapshot({
      state: 'ended',
      runId: 'r3',
      result: result({ success: false, terminationReason: 'cost_budget', finalAnswer: 'partial' }),
    });
    expect(budget.status?.state).toBe(TASK_STATE.failed);
    expect(budget.status?.message?.parts[0]!.content).toEqual({
      $case: 'text',
      value: 'The run ended without an answer (cost_budget).\n\npartial',
    });

    for (const runState of ['failed', 'terminated', 'timed_out'] as const)
      expect(taskOfSnapshot({ state: 'gone', runId: 'r4', runState }).status?.state).toBe(TASK_STATE.failed);
    expect(taskOfSnapshot({ state: 'gone', runId: 'r5', runState: 'cancelled' }).status?.state).toBe(
      TASK_STATE.canceled,
    );
  });

  it('keeps the last historyLength messages, none at 0, and names the context it is given', () => {
    const snapshot = { state: 'submitted' as const, runId: 'r6' };
    const user = {
      messageId: 'u1',
      contextId: '',
      taskId: '',
      role: 1,
      parts: [],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    expect(taskOfSnapshot(snapshot, { userMessage: user }).history.map((m) => m.messageId)).toEqual([
      'u1',
      'r6:submitted',
    ]);
    expect(taskOfSnapshot(snapshot, { userMessage: user, historyLength: 1 }).history.map((m) => m.messageId)).toEqual([
      'r6:submitted',
    ]);
    expect(taskOfSnapshot(snapshot, { userMessage: user, historyLength: 0 }).history).toEqual([]);
    const inContext = taskOfSnapshot(snapshot, { userMessage: user, contextId: 'conversation-1' });
    expect(inContext.contextId).toBe('conversation-1');
    expect(inContext.history.every((m) => m.contextId === 'conversation-1' && m.taskId !== '')).toBe(true);
  });
});
