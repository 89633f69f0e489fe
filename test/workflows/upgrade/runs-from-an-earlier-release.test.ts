import { defaultPayloadConverter } from '@temporalio/common';
import type { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ModelProvider } from '../../../src/activities';
import { modelCallsOfRun } from '../../../src/client/audit/model-call-history';
import { AgentClient } from '../../../src/client/agent-client';
import { runIdsOf } from '../../../src/client/run-ids';
import type { ModelMessage, ReasoningStep } from '../../../src/shared';
import { defineTool } from '../../../src/tools/define-tool';
import { createAgentWorker } from '../../../src/worker';
import { EARLIER_RELEASES, loadRelease, type LoadedRelease } from '../../helpers/earlier-release';
import { patchIds } from '../../helpers/history';
import { waitFor } from '../../helpers/people-helpers';
import { childRunIds } from '../../helpers/sub-agent-scripts';
import { useTestEnv } from '../../helpers/temporal-env';
import { answerAndApprove, APPROVAL, CHILD, holdingInFlight, IN_FLIGHT, pageText, QUESTION, scripts, STARTED, startAndWait, startInput, tools } from './upgrade-scenarios';

const env = useTestEnv();

/** The patch ids each Temporal run of the workflow recorded, oldest run first. */
async function patchesPerRun(workflowId: string): Promise<string[][]> {
  const runIds = await runIdsOf(env.client, workflowId);
  return Promise.all(runIds.map(async (runId) => patchIds(await env.client.workflow.getHandle(workflowId, runId).fetchHistory())));
}

/** What the model received, with the ids that differ between runs blanked. */
const conversations = (calls: ReadonlyArray<{ messages: readonly ModelMessage[] }>) => JSON.stringify(calls.map((c) => c.messages)).replace(/"(id|toolUseId)":"[^"]*"/g, '"$1":"…"');

const workers: Worker[] = [];
afterAll(async () => {
  await Promise.all(workers.filter((w) => w.getState() === 'RUNNING').map((w) => w.shutdown()));
});

/** One worker of a release on `taskQueue`; today's replays every workflow task (no cache), so each task rereads what the earlier release recorded. */
async function workerOf(release: LoadedRelease | 'today', taskQueue: string, model: ModelProvider, written: string[]): Promise<Worker> {
  const common = { connection: env.nativeConnection, namespace: inject('temporalNamespace'), taskQueue, models: { scripted: model }, secrets: [] };
  const worker =
    release === 'today'
      ? await createAgentWorker({ ...common, tools: tools(defineTool, written), workflowBundle: { codePath: inject('workflowBundlePath') }, workerOptions: { maxCachedWorkflows: 0 } })
      : await release.createAgentWorker({ ...common, tools: tools(release.defineTool, written), workflowBundle: { codePath: release.bundlePath } });
  workers.push(worker);
  return worker;
}

/** The runs, each whole on today's worker: what the upgraded runs must match (made once). */
let todayOnly: ReturnType<typeof runTodayOnly> | undefined;
async function runTodayOnly() {
  const { book, models } = scripts();
  const written: string[] = [];
  const taskQueue = `today-${Date.now()}`;
  const agents = new AgentClient({ client: env.client, taskQueue });
  const worker = await workerOf('today', taskQueue, book.provider, written);
  const results = await worker.runUntil(async () => {
    const ids = await startAndWait((run) => agents.start(startInput(run)), (id) => agents.status(id));
    await answerAndApprove(agents, ids);
    return Promise.all(ids.map((id) => agents.result(id)));
  });
  return { models, written, results };
}

/** The `callModel` inputs a Temporal run scheduled, and the attempt each was last started on, by which worker. */
async function modelCallAttempts(workflowId: string, runId: string): Promise<Array<{ input: Record<string, unknown>; attempt: number; identity: string }>> {
  const { events } = await env.client.workflow.getHandle(workflowId, runId).fetchHistory();
  const inputs = new Map<string, Record<string, unknown>>();
  const calls: Array<{ input: Record<string, unknown>; attempt: number; identity: string }> = [];
  for (const e of events ?? []) {
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name === 'callModel') inputs.set(String(e.eventId), defaultPayloadConverter.fromPayload(scheduled.input!.payloads![0]!));
    const started = e.activityTaskStartedEventAttributes;
    const input = started && inputs.get(String(started.scheduledEventId));
    if (input) calls.push({ input, attempt: started.attempt ?? 1, identity: started.identity ?? '' });
  }
  return calls;
}

describe.each(EARLIER_RELEASES)("runs recorded by $name complete on today's workers", (release) => {
  let earlier: LoadedRelease;
  beforeAll(async () => {
    earlier = await loadRelease(release);
  }, 180_000);

  it('runs waiting for an answer, for an approval (their own or a sub-agent\'s) and on a model call go on after the upgrade: the model sees what it would have, the chain and the audit read across both releases', { timeout: 240_000 }, async () => {
    const { book, models } = scripts();
    const held = holdingInFlight(book);
    const written: string[] = [];
    const taskQueue = `upgrade-${Date.now()}`;

    // The earlier release starts the runs (its own client) and takes them to where they wait.
    const before = new earlier.AgentClient({ client: env.client, taskQueue });
    const oldWorker = await workerOf(earlier, taskQueue, held.provider, written);
    const runs = await oldWorker.runUntil(async () => {
      const ids = await startAndWait((run) => before.start(startInput(run)), (id) => before.status(id));
      await waitFor('the held model call', () => held.state.held === 1, 30_000);
      return ids;
    });
    const [question, , inFlight, delegation] = runs as [string, string, string, string];
    const [child] = await childRunIds(env.client, delegation);
    expect(earlier.newerPatches.length).toBeGreaterThan(0);
    for (const id of [...runs, child!]) expect((await patchesPerRun(id)).flat().filter((patch) => earlier.newerPatches.includes(patch))).toEqual([]);
    // The question's run handed over once already, under the earlier release.
    expect(await runIdsOf(env.client, question)).toHaveLength(2);
    expect([QUESTION, APPROVAL, IN_FLIGHT, CHILD].map((run) => models.get(run)!.calls.length)).toEqual([4, 2, 2, 2]);

    // Today's worker and client take over: a person answers and approves, the held call is tried again, and all finish.
    held.state.holding = false;
    const agents = new AgentClient({ client: env.client, taskQueue });
    const newWorker = await workerOf('today', taskQueue, held.provider, written);
    const results = await newWorker.runUntil(async () => {
      await answerAndApprove(agents, runs);
      return Promise.all(runs.map((id) => agents.result(id)));
    });
    for (const model of models.values()) model.verify();
    expect(results.map((r) => [r.success, r.finalAnswer])).toEqual(STARTED.map((run) => [true, run.answer]));
    expect(await agents.result(child!)).toMatchObject({ success: true, finalAnswer: CHILD.answer });
    expect(written.sort()).toEqual(['child.txt: page one', 'notes.txt: page one']);
    // The held call was scheduled by the earlier release, in its format (the whole conversation
    // before model calls went by reference), and completed on today's worker.
    const [inFlightRun] = await runIdsOf(env.client, inFlight);
    const retried = (await modelCallAttempts(inFlight, inFlightRun!))[2]!;
    expect(retried).toMatchObject({ identity: newWorker.options.identity });
    expect(retried.attempt).toBeGreaterThan(1);
    expect('conversation' in retried.input).toBe(!earlier.newerPatches.includes('model-call-by-reference'));

    // Today's code took its new paths from the upgrade on (the markers), in the runs it went on with.
    const afterUpgrade = (await patchesPerRun(question)).slice(2).flat();
    expect(afterUpgrade).toEqual(expect.arrayContaining(release.takenAfter));

    // The model received exactly what it receives in runs made wholly by today's code, and the
    // runs counted alike.
    const today = await (todayOnly ??= runTodayOnly());
    expect(today.written.sort()).toEqual(written);
    const counts = ({ iterations, modelCalls, toolCalls, continuations }: (typeof results)[number]) => ({ iterations, modelCalls, toolCalls, continuations });
    expect(results.map(counts)).toEqual(today.results.map(counts));
    for (const [run, model] of models) expect(conversations(model.calls)).toEqual(conversations(today.models.get(run)!.calls));

    // The chain reads whole across both releases' runs, every page in order once, and the audit
    // rebuilds every prompt from the histories both releases recorded.
    const read = [...runs.map((id, i) => [id, STARTED[i]!] as const), [child!, CHILD] as const];
    for (const [id, run] of read) {
      const chain = await agents.chain(id, 'auditor');
      expect(chain.steps.map((s) => s.stepNumber)).toEqual(chain.steps.map((_, i) => i + 1));
      const pagesInChain = chain.steps.flatMap((s: ReasoningStep) => (s.type === 'tool_result' && typeof s.toolResult.result === 'string' && s.toolResult.result.startsWith('page ') ? [s.toolResult.result] : []));
      expect(pagesInChain).toEqual(Array.from({ length: run.pages }, (_, i) => pageText(i + 1)));
      const audited = await modelCallsOfRun(env.client, id, await runIdsOf(env.client, id), chain.steps);
      expect(audited.map((c) => c.request.messages)).toEqual(models.get(run)!.calls.map((c) => c.messages));
    }
  });
});
