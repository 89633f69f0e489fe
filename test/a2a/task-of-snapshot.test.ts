import { describe, expect, it } from 'vitest';
import type { AgentResult } from '../../src/domain';
import { remoteOutcome } from '../../src/activities/a2a/remote-task-result';
import { runEnding } from '../../src/domain/run/run-ending';
import { TASK_STATE, taskOfSnapshot } from '../../src/server/a2a/tasks/task-of-snapshot';

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

/** An ended snapshot as readRunSnapshot makes it: the (viewed) result and its ending. */
const ended = (runId: string, over: Partial<AgentResult>) => {
  const r = result(over);
  return { state: 'ended' as const, runId, result: r, ending: runEnding({ result: r }) };
};
const textOf = (task: ReturnType<typeof taskOfSnapshot>): string =>
  task.status?.message?.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('') ?? '';

describe('a run as an A2A task', () => {
  it('maps how a run ended to completed (with the artifact), canceled or failed (with the ending in words and metadata)', () => {
    const done = taskOfSnapshot(ended('r1', { grounding: 'grounded' }));
    expect(done.status?.state).toBe(TASK_STATE.completed);
    expect(done.artifacts[0]!.parts[0]!.content).toEqual({ $case: 'text', value: 'the answer' });
    expect(done.artifacts[0]!.name).toBe('Final answer');
    expect(done.metadata?.thoughtline).toEqual({
      runId: 'r1',
      chain: '/v1/runs/r1/chain',
      costUsd: 0.25,
      usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
      terminationReason: 'success',
      ending: {
        state: 'completed',
        terminationReason: 'success',
        label: 'success',
        tone: 'ok',
        summary: 'success',
        answerTitle: 'Final answer',
        grounding: 'grounded',
      },
    });

    const cancelled = taskOfSnapshot(
      ended('r2', { success: false, terminationReason: 'cancelled', finalAnswer: 'stopped early' }),
    );
    expect(cancelled.status?.state).toBe(TASK_STATE.canceled);
    expect(textOf(cancelled)).toBe('cancelled\n\nAnswer (cancelled): stopped early');
    expect(cancelled.artifacts[0]!.artifactId).toBe('partial-answer');

    const budget = taskOfSnapshot(
      ended('r3', { success: false, terminationReason: 'cost_budget', finalAnswer: 'partial', grounding: 'grounded' }),
    );
    expect(budget.status?.state).toBe(TASK_STATE.completed);
    expect(textOf(budget)).toBe('cost_budget\n\nPartial answer (cost_budget): partial');
    expect(budget.artifacts[0]).toMatchObject({ artifactId: 'partial-answer', name: 'Partial answer (cost_budget)' });
    expect(budget.metadata?.thoughtline.ending).toMatchObject({ tone: 'limit', label: 'cost_budget' });
    // A Thoughtline parent calling this agent reads the limit with the answer, not the bare answer.
    expect(remoteOutcome(budget, 1_000, (t) => t).text).toBe(textOf(budget));
    expect(remoteOutcome(done, 1_000, (t) => t).text).toBe('the answer');

    const error = taskOfSnapshot(
      ended('r4', { success: false, terminationReason: 'error', finalAnswer: '', error: 'Model: no key\nat x' }),
    );
    expect(error.status?.state).toBe(TASK_STATE.failed);
    expect(textOf(error)).toBe('error: Model: no key\n\nModel: no key\nat x');
    expect(error.artifacts).toEqual([]);

    const gaveUp = taskOfSnapshot(
      ended('r5', { success: false, terminationReason: 'failure', finalAnswer: 'No access.' }),
    );
    expect(gaveUp.status?.state).toBe(TASK_STATE.failed);
    expect(textOf(gaveUp)).toBe('failure: No access.');
    expect(gaveUp.artifacts).toEqual([]);

    for (const execution of ['failed', 'terminated', 'timed_out'] as const) {
      const gone = taskOfSnapshot({ state: 'ended', runId: 'r6', ending: runEnding({ execution, failure: 'boom' }) });
      // A termination is a person's stop, as in MCP and AG-UI.
      expect(gone.status?.state).toBe(execution === 'terminated' ? TASK_STATE.canceled : TASK_STATE.failed);
      expect(textOf(gone)).toBe(`${execution}: boom`);
      expect(gone.metadata?.thoughtline).toEqual({
        runId: 'r6',
        chain: '/v1/runs/r6/chain',
        ending: runEnding({ execution, failure: 'boom' }),
      });
    }
    expect(
      taskOfSnapshot({ state: 'ended', runId: 'r7', ending: runEnding({ execution: 'cancelled' }) }).status?.state,
    ).toBe(TASK_STATE.canceled);
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
