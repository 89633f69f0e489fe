import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { useTool } from '../../../src/activities/models/scripted-model';
import { addRunScore, readRunScores } from '../../../src/client/runs/run-scores';
import { UnknownRunError } from '../../../src/client/errors/unknown-run-error';
import { UpdateRefusedError } from '../../../src/client/errors/update-refused-error';
import { MAX_SCORES_PER_RUN, type RunScore, type RunScoresState } from '../../../src/domain/evaluation/run-scores';
import {
  addRunScoreUpdate,
  runScoresQuery,
  runScoresWorkflowId,
} from '../../../src/workflows/scores/run-scores-messages';
import type { runScoresWorkflow } from '../../../src/workflows/scores/run-scores-workflow';
import { HOSTILE_PAYLOADS } from '../../helpers/hostile-payloads';
import { ScriptBook, sharedWorker } from '../../helpers/people-helpers';
import { scriptedInput } from '../../helpers/scripted-input';

const EventType = temporal.api.enums.v1.EventType;
const book = new ScriptBook();
const shared = sharedWorker(() => [], book.provider);

/** An agent run that has ended, with its answer. */
async function endedRun(label: string): Promise<string> {
  const task = `scores: ${label} ${randomUUID().slice(0, 8)}`;
  book.script(task, [{ content: [useTool('finish', { result: 'done' })] }]);
  const handle = await shared.h.agents.start(scriptedInput(task));
  await handle.result();
  return handle.workflowId;
}

const options = (idleMs?: number) => ({
  taskQueue: shared.h.taskQueue,
  ...(idleMs !== undefined ? { idleMs } : {}),
});
const scoresHandle = (runId: string, executionRunId?: string) =>
  shared.env.client.workflow.getHandle<typeof runScoresWorkflow>(runScoresWorkflowId(runId), executionRunId);
async function eventTypes(runId: string, executionRunId?: string): Promise<number[]> {
  const history = await scoresHandle(runId, executionRunId).fetchHistory();
  return (history.events ?? []).map((e) => e.eventType ?? EventType.EVENT_TYPE_UNSPECIFIED);
}
/** Every payload's bytes in a history, as text. */
function payloadText(value: unknown): string {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (typeof value !== 'object' || value === null) return '';
  return Object.values(value).map(payloadText).join('\n');
}
const count = (types: number[], name: keyof typeof EventType) => types.filter((t) => t === EventType[name]).length;

describe('scores of an ended run', () => {
  it('update-with-start stores a score on a run that has ended; same name and person replaces, another person adds; 3 actions, then 1 each', async () => {
    const run = await endedRun('ended');
    expect((await shared.env.client.workflow.getHandle(run).describe()).status.name).toBe('COMPLETED');

    const first = await addRunScore(
      shared.env.client,
      run,
      { name: 'accepted', value: true, comment: 'user clicked accept', by: 'alice' },
      options(),
    );
    expect(first).toMatchObject({
      score: { name: 'accepted', value: 1, comment: 'user clicked accept', by: 'alice', at: expect.any(String) },
      count: 1,
      limit: MAX_SCORES_PER_RUN,
    });
    expect(first.replaced).toBeUndefined();
    const again = await addRunScore(
      shared.env.client,
      run,
      { name: 'accepted', value: false, source: 'zendesk', by: { id: 'alice', roles: ['ops'] } },
      options(),
    );
    expect(again).toMatchObject({
      score: { value: 0, source: 'zendesk', by: 'alice' },
      replaced: first.score,
      count: 1,
    });
    await addRunScore(shared.env.client, run, { name: 'csat', value: 4.5, by: 'bob' }, options());

    const scores = await readRunScores(shared.env.client, run);
    expect(scores.map((s: RunScore) => [s.name, s.value, s.by])).toEqual([
      ['accepted', 0, 'alice'],
      ['csat', 4.5, 'bob'],
    ]);
    expect(await shared.h.agents.scores(run)).toEqual(scores);

    // One start, three updates, one idle timer for all of them (Temporal actions: 3 for the first score, 1 after).
    const types = await eventTypes(run);
    expect(count(types, 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED')).toBe(1);
    expect(count(types, 'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED')).toBe(3);
    expect(count(types, 'EVENT_TYPE_TIMER_STARTED')).toBe(1);
    expect(count(types, 'EVENT_TYPE_WORKFLOW_TASK_FAILED')).toBe(0);
  });

  it('redacts a secret in a comment before it is sent: neither the scores nor the history hold it', async () => {
    const run = await endedRun('redacted');
    const secret = 'sk-ant-api03-' + 'a'.repeat(90);
    const stored = await shared.h.agents.score(run, {
      name: 'accepted',
      value: 1,
      comment: `key ${secret}`,
      by: 'carol',
    });
    expect(stored.score.comment).toContain('[REDACTED]');
    expect(stored.score.comment).not.toContain(secret);
    const history = payloadText(await scoresHandle(run).fetchHistory());
    expect(history).toContain('[REDACTED]');
    expect(history).not.toContain('a'.repeat(90));
  });

  it('refuses a score for a workflow id with no agent run, and for a workflow that is not an agent run', async () => {
    const missing = `agent-${randomUUID()}`;
    await expect(
      addRunScore(shared.env.client, missing, { name: 'accepted', value: 1, by: 'alice' }, options()),
    ).rejects.toBeInstanceOf(UnknownRunError);
    await expect(scoresHandle(missing).describe()).rejects.toThrow();

    const run = await endedRun('not an agent');
    await addRunScore(shared.env.client, run, { name: 'accepted', value: 1, by: 'alice' }, options());
    // The scores workflow itself is no agent run: scoring it is refused, not stacked.
    await expect(
      addRunScore(shared.env.client, runScoresWorkflowId(run), { name: 'accepted', value: 1, by: 'alice' }, options()),
    ).rejects.toBeInstanceOf(UnknownRunError);
    expect(await readRunScores(shared.env.client, missing)).toEqual([]);
  });
});

describe('what the scores workflow refuses', () => {
  it('refuses every hostile payload and every bad field in its validator: nothing reaches history, the scores stay', async () => {
    const run = await endedRun('hostile');
    await addRunScore(shared.env.client, run, { name: 'accepted', value: 1, by: 'alice' }, options());
    const handle = scoresHandle(run);
    const good = { name: 'ok', value: 1, by: 'mallory' };
    const bad: Array<[string, unknown]> = [
      ...HOSTILE_PAYLOADS.filter((p) => p.wire).map((p): [string, unknown] => [p.name, p.value()]),
      ['a name with a space', { ...good, name: 'not ok' }],
      ['a name starting with a digit', { ...good, name: '1st' }],
      ['a name of 65 characters', { ...good, name: 'a'.repeat(65) }],
      ['an empty name', { ...good, name: '' }],
      ['a value as text', { ...good, value: '1' }],
      ['a boolean value (the client turns it into 1 or 0)', { ...good, value: true }],
      ['an infinite value (null on the wire)', { ...good, value: Infinity }],
      ['a comment of 2,001 characters', { ...good, comment: 'c'.repeat(2_001) }],
      ['no by', { name: 'ok', value: 1 }],
      ['an empty by', { ...good, by: '' }],
      ['a by of 201 characters', { ...good, by: 'b'.repeat(201) }],
      ['a source with a slash', { ...good, source: 'a/b' }],
      ['an at of its own', { ...good, at: '1999-01-01T00:00:00.000Z' }],
      ['an unknown field', { ...good, weight: 2 }],
    ];
    for (const [name, payload] of bad) {
      await expect(handle.executeUpdate('addRunScore', { args: [payload] }), name).rejects.toBeInstanceOf(
        WorkflowUpdateFailedError,
      );
    }
    expect(await handle.query<unknown, [unknown]>('runScores', 42)).toMatchObject({ scores: [{ name: 'accepted' }] });
    const types = await eventTypes(run);
    expect(count(types, 'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED')).toBe(1);
    expect(count(types, 'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_REJECTED')).toBe(0);
    expect(count(types, 'EVENT_TYPE_WORKFLOW_TASK_FAILED')).toBe(0);
  }, 120_000);

  it('takes the 200th score, refuses a 201st new one clearly, and still replaces one at the limit', async () => {
    const run = await endedRun('limit');
    const at = new Date().toISOString();
    const carried: RunScoresState = {
      schemaVersion: 1,
      runWorkflowId: run,
      scores: Array.from({ length: MAX_SCORES_PER_RUN - 1 }, (_, i) => ({ name: `s${i}`, value: i, by: 'seed', at })),
    };
    // Start the scores with 199 carried, as a fresh execution after an idle close would.
    await shared.env.client.workflow.start<typeof runScoresWorkflow>('runScoresWorkflow', {
      workflowId: runScoresWorkflowId(run),
      taskQueue: shared.h.taskQueue,
      args: [{ runWorkflowId: run, carried }],
    });
    const score = (name: string, by = 'alice') =>
      addRunScore(shared.env.client, run, { name, value: 1, by }, options());
    expect(await score('last')).toMatchObject({ count: MAX_SCORES_PER_RUN });
    const refused = await score('one.too.many').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UpdateRefusedError);
    expect((refused as Error).message).toMatch(/already has 200 scores, the most one run keeps/);
    expect(await score('s7', 'seed')).toMatchObject({ count: MAX_SCORES_PER_RUN, replaced: { name: 's7', value: 7 } });
    const scores = await readRunScores(shared.env.client, run);
    expect(scores).toHaveLength(MAX_SCORES_PER_RUN);
    expect(scores.some((s) => s.name === 'one.too.many')).toBe(false);
  });
});

describe('lifetime', () => {
  it('closes after its idle time returning the scores; reads them from the result; a later score reopens it carrying them', async () => {
    const run = await endedRun('idle');
    const idleMs = 1_500;
    await addRunScore(shared.env.client, run, { name: 'accepted', value: 1, by: 'alice' }, options(idleMs));
    await addRunScore(shared.env.client, run, { name: 'csat', value: 5, by: 'alice' }, options(idleMs));
    const first = await scoresHandle(run).describe();
    const closed = await scoresHandle(run, first.runId).result();
    expect(closed.scores.map((s) => s.name)).toEqual(['accepted', 'csat']);
    expect((await scoresHandle(run).describe()).status.name).toBe('COMPLETED');
    expect((await readRunScores(shared.env.client, run)).map((s) => s.name)).toEqual(['accepted', 'csat']);
    // What addRunScore relies on when the execution it read as open closes before its update lands:
    // an update to that closed execution is WorkflowNotFoundError, so it reads again and starts anew.
    await expect(
      scoresHandle(run, first.runId).executeUpdate(addRunScoreUpdate, { args: [{ name: 'late', value: 1, by: 'x' }] }),
    ).rejects.toBeInstanceOf(WorkflowNotFoundError);

    const reopened = await addRunScore(
      shared.env.client,
      run,
      { name: 'ticket.reopened', value: 1, by: 'zendesk-bot', source: 'zendesk' },
      options(60_000),
    );
    expect(reopened.count).toBe(3);
    const second = await scoresHandle(run).describe();
    expect(second.runId).not.toBe(first.runId);
    expect(second.status.name).toBe('RUNNING');
    expect((await scoresHandle(run).query(runScoresQuery)).scores.map((s) => s.name)).toEqual([
      'accepted',
      'csat',
      'ticket.reopened',
    ]);
    // One idle timer per score at most: armed at the first score and, when it fired before the
    // second had been idle long enough, once more for the rest. Both scores can also land in one
    // workflow task (a loaded machine), and then one timer serves both.
    const timers = count(await eventTypes(run, first.runId), 'EVENT_TYPE_TIMER_STARTED');
    expect(timers).toBeGreaterThanOrEqual(1);
    expect(timers).toBeLessThanOrEqual(2);
    await scoresHandle(run).terminate('test over');
    // Terminated, not completed: read by a query the worker answers by replay.
    expect((await readRunScores(shared.env.client, run)).map((s) => s.name)).toContain('ticket.reopened');
  });

  it('continues as new after its update budget, carrying the scores; later scores reach the new execution', async () => {
    const run = await endedRun('handover');
    const id = runScoresWorkflowId(run);
    await shared.env.client.workflow.start<typeof runScoresWorkflow>('runScoresWorkflow', {
      workflowId: id,
      taskQueue: shared.h.taskQueue,
      args: [{ runWorkflowId: run, continueAsNewAfter: 2 }],
    });
    const first = await scoresHandle(run).describe();
    for (const name of ['a', 'b', 'c', 'd', 'e'])
      await addRunScore(shared.env.client, run, { name, value: 1, by: 'alice' }, options());
    expect((await readRunScores(shared.env.client, run)).map((s) => s.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(count(await eventTypes(run, first.runId), 'EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW')).toBe(1);
    expect((await scoresHandle(run).describe()).runId).not.toBe(first.runId);
    await scoresHandle(run).terminate('test over');
  });
});
