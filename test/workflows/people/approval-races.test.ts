import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import type { ModelProvider } from '../../../src/activities';
import { UpdateRefusedError, sendUpdate } from '../../../src/client/errors/update-refused-error';
import type { ApprovalRecord } from '../../../src/domain';
import { approveToolCallUpdate } from '../../../src/workflows/messages';
import {
  approvalUpdatesInHistory,
  holdAfter,
  lastToolResults,
  until,
  waitForPending,
  writeFileTool,
} from '../../helpers/approval-helpers';
import { taskOf } from '../../helpers/people-helpers';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const alice = { id: 'alice', roles: ['ops'] };

/** One provider for several concurrent runs: each request goes to the model of the run whose task it carries. */
function routeByTask(models: ReadonlyMap<string, ModelProvider>): ModelProvider {
  return {
    name: 'scripted',
    complete(request, signal, hooks) {
      const task = taskOf(request);
      const model = models.get(task);
      if (!model) throw new Error(`No model for task "${task}"`);
      return model.complete(request, signal, hooks);
    },
  };
}

describe.concurrent('a decision racing the approval deadline', () => {
  it('either lands (the tool runs, the record is approved) or is refused as timed out (nothing runs), never both or neither', async () => {
    const timeoutMs = 2_000;
    // Offsets from the deadline; the first few should usually land, the last usually not.
    const offsets = [-100, -40, 0, 40, 100, 300];
    const ran: Array<Record<string, unknown>> = [];
    const runs = offsets.map((offset, i) => {
      const scripted = createScriptedModel([
        { content: [useTool('write_file', { path: `/tmp/race-${i}` }, 'toolu_race')] },
        { content: [useTool('finish', { result: `run ${i} done` })] },
      ]);
      return { offset, task: `Race ${i}`, scripted, held: holdAfter(scripted, 1) };
    });
    // Every task replayed: a decision that lands mid-task must replay to the same history.
    const h = await createHarness(env, {
      tools: [writeFileTool(ran)],
      models: { scripted: routeByTask(new Map(runs.map((r) => [r.task, r.held.model]))) },
      replayEveryTask: true,
    });

    const outcomes = await h.worker.runUntil(() =>
      Promise.all(
        runs.map(async ({ offset, task, held }) => {
          const handle = await h.agents.start({ task, model: SCRIPTED_MODEL, approvalTimeoutMs: timeoutMs });
          const [pending] = await waitForPending(h.agents, handle.workflowId);
          expect(Date.parse(pending!.expiresAt) - Date.parse(pending!.requestedAt)).toBe(timeoutMs);
          await until(Date.parse(pending!.expiresAt) + offset);
          const decision = { callId: 'toolu_race', approved: true, by: alice, argumentsHash: pending!.argumentsHash };
          // Sent raw, so the attempt is one update at the chosen instant (no query first).
          const sent = await sendUpdate(() => handle.executeUpdate(approveToolCallUpdate, { args: [decision] })).then(
            (record: ApprovalRecord) => ({ landed: true as const, record }),
            (error: unknown) => ({ landed: false as const, error }),
          );
          // The run is held at its next model call until the attempt has settled, so it cannot have ended.
          held.release();
          return { offset, workflowId: handle.workflowId, sent, result: await handle.result() };
        }),
      ),
    );

    for (const [i, { offset, workflowId, sent, result }] of outcomes.entries()) {
      const label = `run ${i} (offset ${offset} ms)`;
      runs[i]!.scripted.verify();
      const record = result.chain.approvals?.[0];
      const sideEffects = ran.filter((a) => a['path'] === `/tmp/race-${i}`);
      const [observation] = lastToolResults(runs[i]!.scripted.calls[1]!.messages);
      const accepted = (await approvalUpdatesInHistory(env.client, workflowId)).accepted;
      expect(result.chain.approvals, label).toHaveLength(1);
      expect(result.success, label).toBe(true);
      if (sent.landed) {
        expect(sent.record, label).toMatchObject({ status: 'approved', decidedBy: alice });
        expect(record, label).toMatchObject({ status: 'approved', decidedBy: alice });
        expect(sideEffects, label).toEqual([{ path: `/tmp/race-${i}`, text: '' }]);
        expect(observation, label).toMatchObject({ toolUseId: 'toolu_race', isError: false });
        expect(accepted, label).toHaveLength(1);
      } else {
        expect(sent.error, label).toBeInstanceOf(UpdateRefusedError);
        expect((sent.error as Error).message, label).toMatch(
          /^Tool call "toolu_race" \(write_file\) was already timed out at \S+\.$/,
        );
        expect(record, label).toMatchObject({ status: 'timed_out' });
        expect(record?.decidedBy, label).toBeUndefined();
        expect(sideEffects, label).toEqual([]);
        expect(observation, label).toMatchObject({ toolUseId: 'toolu_race', isError: true });
        expect(accepted, label).toEqual([]);
      }
    }
    expect(ran).toHaveLength(outcomes.filter((o) => o.sent.landed).length);
  });
});

describe.concurrent('approvals across continue-as-new', () => {
  it('a call requested in a later Temporal run is decided through the workflow id; a call decided in an earlier run stays decided', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const model = createScriptedModel([
      { content: [useTool('write_file', { path: '/tmp/first' }, 'toolu_can1')] },
      { content: [useTool('write_file', { path: '/tmp/second' }, 'toolu_can2')] },
      { content: [useTool('finish', { result: 'both written' })] },
    ]);
    const h = await createHarness(env, {
      tools: [writeFileTool(ran)],
      models: { scripted: model },
      replayEveryTask: true,
    });

    const { handle, firstRunId, first, second, again, result } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        task: 'Write both files',
        model: SCRIPTED_MODEL,
        continueAsNewEvery: 1,
        approvalTimeoutMs: 60_000,
      });
      const firstRunId = (await handle.describe()).runId;
      const [first] = await waitForPending(h.agents, handle.workflowId);
      await h.agents.decide(handle.workflowId, { callId: 'toolu_can1', approved: true, by: alice });
      const [second] = await waitForPending(h.agents, handle.workflowId);
      const again = await h.agents
        .decide(handle.workflowId, {
          callId: 'toolu_can1',
          approved: false,
          by: { id: 'bob', roles: [] },
          reason: 'too late',
        })
        .then(
          () => 'accepted',
          (e: unknown) => (e instanceof UpdateRefusedError ? e.message : `unexpected ${String(e)}`),
        );
      await h.agents.decide(handle.workflowId, { callId: 'toolu_can2', approved: true, by: alice });
      return { handle, firstRunId, first: first!, second: second!, again, result: await handle.result() };
    });
    model.verify();

    expect(first).toMatchObject({ callId: 'toolu_can1', runId: firstRunId });
    expect(second.callId).toBe('toolu_can2');
    expect(second.runId).not.toBe(first.runId);
    const decidedFirst = result.chain.approvals?.find((r) => r.callId === 'toolu_can1');
    expect(again).toBe(
      `Tool call "toolu_can1" (write_file) was already approved by alice at ${decidedFirst?.decidedAt}.`,
    );

    expect(result).toMatchObject({ success: true, finalAnswer: 'both written' });
    expect(result.continuations).toBeGreaterThanOrEqual(1);
    expect(result.chain.approvals?.map((r) => [r.callId, r.status, r.runId, r.decidedBy?.id])).toEqual([
      ['toolu_can1', 'approved', first.runId, 'alice'],
      ['toolu_can2', 'approved', second.runId, 'alice'],
    ]);
    expect(ran).toEqual([
      { path: '/tmp/first', text: '' },
      { path: '/tmp/second', text: '' },
    ]);
    expect(lastToolResults(model.calls[2]!.messages)).toEqual([
      expect.objectContaining({ toolUseId: 'toolu_can2', isError: false }),
    ]);

    // Each Temporal run's history holds its own accepted decision; the refused one is in neither.
    const inFirst = await approvalUpdatesInHistory(env.client, handle.workflowId, first.runId);
    const inSecond = await approvalUpdatesInHistory(env.client, handle.workflowId, second.runId);
    expect(inFirst.accepted.map((d) => [d.callId, d.approved])).toEqual([['toolu_can1', true]]);
    expect(inSecond.accepted.map((d) => [d.callId, d.approved])).toEqual([['toolu_can2', true]]);
    expect(inFirst.completed + inSecond.completed).toBe(2);
  });

  it('react-text: calls in different Temporal runs keep distinct ids, so each keeps its own approval record', async ({
    expect,
  }) => {
    const ran: Array<Record<string, unknown>> = [];
    const action = (path: string) => ({
      content: [say(`Thought: write ${path}.\nAction: write_file\nAction Input: {"path": "${path}"}`)],
    });
    const model = createScriptedModel([
      action('/tmp/one'),
      action('/tmp/two'),
      { content: [say('Final Answer: both written')] },
    ]);
    const h = await createHarness(env, {
      tools: [writeFileTool(ran)],
      models: { scripted: model },
      replayEveryTask: true,
    });

    const { ids, result } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        task: 'Write both files',
        model: SCRIPTED_MODEL,
        strategy: 'react-text',
        continueAsNewEvery: 1,
        approvalTimeoutMs: 60_000,
      });
      const ids: string[] = [];
      for (const path of ['/tmp/one', '/tmp/two']) {
        const [pending] = await waitForPending(h.agents, handle.workflowId);
        expect(pending!.arguments).toEqual({ path, text: '' });
        ids.push(pending!.callId);
        await h.agents.decide(handle.workflowId, { callId: pending!.callId, approved: true, by: alice });
      }
      return { ids, result: await handle.result() };
    });
    model.verify();

    expect(result).toMatchObject({ success: true, finalAnswer: 'both written' });
    expect(result.continuations).toBeGreaterThanOrEqual(1);
    expect(ran.map((a) => a['path'])).toEqual(['/tmp/one', '/tmp/two']);
    expect.soft(new Set(ids).size, `call ids ${ids.join(', ')}`).toBe(2);
    expect(result.chain.approvals?.map((r) => [r.arguments['path'], r.status])).toEqual([
      ['/tmp/one', 'approved'],
      ['/tmp/two', 'approved'],
    ]);
  });
});
