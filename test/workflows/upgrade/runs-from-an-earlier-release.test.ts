import path from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import type { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import type { ModelProvider } from '../../../src/activities';
import { useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import { modelCallsOfRun } from '../../../src/client/audit/model-call-history';
import { AgentClient } from '../../../src/client/agent-client';
import { runIdsOf } from '../../../src/client/run-ids';
import type { AgentInputInit, ModelMessage, ReasoningStep } from '../../../src/shared';
import { defineTool } from '../../../src/tools/define-tool';
import { createAgentWorker } from '../../../src/worker';
import { EARLIER_RELEASES, earlierReleaseBundle, earlierReleaseSource, patchIdsOf, PROJECT_ROOT, type EarlierRelease } from '../../helpers/earlier-release';
import { waitForPending } from '../../helpers/approval-helpers';
import { ScriptBook, taskOf, waitFor } from '../../helpers/people-helpers';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

/** Long enough (≥ 256 characters) that today's runs name it by hash in the next model call. */
const pageText = (n: number) => `page ${n}: ${'lorem ipsum '.repeat(50)}`;

/** The tools, defined with a release's own defineTool, so each worker gets its own kind. */
function tools(define: typeof defineTool, written: string[]) {
  return [
    define({ name: 'page', description: 'Returns page n', input: z.object({ n: z.number() }), execute: ({ n }) => pageText(n) }),
    define({
      name: 'write_file',
      type: 'file_system',
      description: 'Writes text to a file',
      input: z.object({ path: z.string(), text: z.string() }),
      retry: { maximumAttempts: 1 },
      execute: ({ path: file, text }) => {
        written.push(`${file}: ${text}`);
        return `wrote ${text.length} characters to ${file}`;
      },
    }),
  ];
}

const pages = (from: number, to: number): ScriptedTurn[] => Array.from({ length: to - from + 1 }, (_, i) => ({ content: [useTool('page', { n: from + i })] }));

/** A question in the middle, handing over every two iterations on both sides of the upgrade. */
const QUESTION: { task: string; turns: ScriptedTurn[]; input: Partial<AgentInputInit> } = {
  task: 'Read six pages, asking before the fourth',
  turns: [...pages(1, 3), { content: [useTool('ask_person', { question: 'Go on reading?' })] }, ...pages(4, 6), { content: [useTool('finish', { result: 'read six pages' })] }],
  input: { allowQuestions: true, continueAsNewEvery: 2 },
};

/** A write that waits for approval. */
const APPROVAL: typeof QUESTION = {
  task: 'Read a page, write it down, read another',
  turns: [...pages(1, 1), { content: [useTool('write_file', { path: 'notes.txt', text: 'page one' })] }, ...pages(2, 2), { content: [useTool('finish', { result: 'wrote it down' })] }],
  input: {},
};

/** A run whose third model call is in flight when the earlier release's worker stops: today's worker retries it, as the earlier release scheduled it. */
const IN_FLIGHT: typeof QUESTION = {
  task: 'Read three pages while the worker is replaced',
  turns: [...pages(1, 3), { content: [useTool('finish', { result: 'read three pages' })] }],
  input: {},
};

/**
 * The book's provider, holding IN_FLIGHT's third and later calls while `holding`: each waits
 * until its activity is cancelled (the worker stops), then fails that attempt without reaching
 * the script.
 */
function holdingInFlight(book: ScriptBook) {
  const state = { holding: true, held: 0, calls: 0 };
  const provider: ModelProvider = {
    name: book.provider.name,
    async complete(request, signal, hooks) {
      if (taskOf(request) === IN_FLIGHT.task && state.holding && ++state.calls >= 3) {
        state.held += 1;
        await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('held until the earlier release\'s worker stopped')), { once: true }));
      }
      return book.provider.complete(request, signal, hooks);
    },
  };
  return { provider, state };
}

const startInput = (run: typeof QUESTION): AgentInputInit => ({ task: run.task, model: SCRIPTED_MODEL, maxToolResultChars: 2_000, ...run.input });

/** The patch ids each Temporal run of the workflow recorded, oldest run first. */
async function patchesPerRun(workflowId: string): Promise<string[][]> {
  const runIds = await runIdsOf(env.client, workflowId);
  return Promise.all(
    runIds.map(async (runId) => {
      const { events } = await env.client.workflow.getHandle(workflowId, runId).fetchHistory();
      return (events ?? []).flatMap((e) => {
        const data = e.markerRecordedEventAttributes?.markerName === 'core_patch' ? e.markerRecordedEventAttributes.details?.['patch-data']?.payloads?.[0]?.data : undefined;
        return data ? [(JSON.parse(Buffer.from(data).toString('utf8')) as { id: string }).id] : [];
      });
    }),
  );
}

/** What the model received, with the ids that differ between runs blanked. */
const conversations = (calls: ReadonlyArray<{ messages: readonly ModelMessage[] }>) => JSON.stringify(calls.map((c) => c.messages)).replace(/"(id|toolUseId)":"[^"]*"/g, '"$1":"…"');

/** A release's worker and client: its own createAgentWorker, defineTool and AgentClient, all from that tree. */
interface Release {
  createAgentWorker: typeof createAgentWorker;
  defineTool: typeof defineTool;
  AgentClient: typeof AgentClient;
  bundlePath: string;
  /** The patches today's code has and the release had not. */
  newerPatches: string[];
}

async function loadRelease({ commit }: EarlierRelease): Promise<Release> {
  const root = earlierReleaseSource(commit);
  const src = (file: string) => path.join(root, 'src', file);
  const had = patchIdsOf(root);
  return {
    createAgentWorker: ((await import(src('worker.ts'))) as { createAgentWorker: typeof createAgentWorker }).createAgentWorker,
    defineTool: ((await import(src('tools/define-tool.ts'))) as { defineTool: typeof defineTool }).defineTool,
    AgentClient: ((await import(src('client/agent-client.ts'))) as { AgentClient: typeof AgentClient }).AgentClient,
    bundlePath: await earlierReleaseBundle(commit),
    newerPatches: [...patchIdsOf(PROJECT_ROOT)].filter((id) => !had.has(id)),
  };
}

const workers: Worker[] = [];
afterAll(async () => {
  await Promise.all(workers.filter((w) => w.getState() === 'RUNNING').map((w) => w.shutdown()));
});

/** One worker of a release on `taskQueue`; today's replays every workflow task (no cache), so each task rereads what the earlier release recorded. */
async function workerOf(release: Release | 'today', taskQueue: string, model: ModelProvider, written: string[]): Promise<Worker> {
  const common = { connection: env.nativeConnection, namespace: inject('temporalNamespace'), taskQueue, models: { scripted: model }, secrets: [] };
  const worker =
    release === 'today'
      ? await createAgentWorker({ ...common, tools: tools(defineTool, written), workflowBundle: { codePath: inject('workflowBundlePath') }, workerOptions: { maxCachedWorkflows: 0 } })
      : await release.createAgentWorker({ ...common, tools: tools(release.defineTool, written), workflowBundle: { codePath: release.bundlePath } });
  workers.push(worker);
  return worker;
}

/** The three scripts in one book, one model each. */
function scripts() {
  const book = new ScriptBook();
  const models = { question: book.script(QUESTION.task, QUESTION.turns), approval: book.script(APPROVAL.task, APPROVAL.turns), inFlight: book.script(IN_FLIGHT.task, IN_FLIGHT.turns) };
  return { book, models };
}

/** A person answers the question and approves the write, with today's client. */
async function answerAndApprove(agents: AgentClient, question: string, approval: string): Promise<void> {
  await waitFor('the open question', async () => (await agents.status(question)).openQuestion);
  await agents.answer(question, 'Yes, go on.', 'ana');
  const [pending] = await waitForPending(agents, approval);
  expect(pending).toMatchObject({ toolName: 'write_file' });
  await agents.decide(approval, { callId: pending!.callId, approved: true, by: 'ana' });
}

/** The three runs, each whole on today's worker: what the upgraded runs must match (made once). */
let todayOnly: ReturnType<typeof runTodayOnly> | undefined;
async function runTodayOnly() {
  const { book, models } = scripts();
  const written: string[] = [];
  const taskQueue = `today-${Date.now()}`;
  const agents = new AgentClient({ client: env.client, taskQueue });
  const worker = await workerOf('today', taskQueue, book.provider, written);
  const results = await worker.runUntil(async () => {
    const runs = await Promise.all([QUESTION, APPROVAL, IN_FLIGHT].map((run) => agents.start(startInput(run))));
    await answerAndApprove(agents, runs[0]!.workflowId, runs[1]!.workflowId);
    return Promise.all(runs.map((run) => run.result()));
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
  let earlier: Release;
  beforeAll(async () => {
    earlier = await loadRelease(release);
  }, 180_000);

  it('runs waiting for an answer, for an approval and on a model call go on after the upgrade: the model sees what it would have, the chain and the audit read across both releases', { timeout: 240_000 }, async () => {
    const { book, models } = scripts();
    const held = holdingInFlight(book);
    const written: string[] = [];
    const taskQueue = `upgrade-${Date.now()}`;

    // The earlier release starts the runs (its own client) and takes them to where they wait: for a
    // person, for a person, and on a model call.
    const before = new earlier.AgentClient({ client: env.client, taskQueue });
    const oldWorker = await workerOf(earlier, taskQueue, held.provider, written);
    const runs = await oldWorker.runUntil(async () => {
      const started = await Promise.all([QUESTION, APPROVAL, IN_FLIGHT].map((run) => before.start(startInput(run))));
      await waitFor('the open question', async () => (await before.status(started[0]!.workflowId)).openQuestion, 30_000);
      await waitFor('the pending write', async () => (await before.pendingApprovals(started[1]!.workflowId)).length === 1, 30_000);
      await waitFor('the held model call', () => held.state.held === 1, 30_000);
      return started.map((run) => run.workflowId);
    });
    const [question, approval, inFlight] = runs as [string, string, string];
    expect(earlier.newerPatches.length).toBeGreaterThan(0);
    for (const id of runs) expect((await patchesPerRun(id)).flat().filter((patch) => earlier.newerPatches.includes(patch))).toEqual([]);
    // The question's run handed over once already, under the earlier release.
    expect(await runIdsOf(env.client, question)).toHaveLength(2);
    expect([models.question.calls.length, models.approval.calls.length, models.inFlight.calls.length]).toEqual([4, 2, 2]);

    // Today's worker and client take over: a person answers and approves, the held call is tried again, and all finish.
    held.state.holding = false;
    const agents = new AgentClient({ client: env.client, taskQueue });
    const newWorker = await workerOf('today', taskQueue, held.provider, written);
    const results = await newWorker.runUntil(async () => {
      await answerAndApprove(agents, question, approval);
      return Promise.all(runs.map((id) => agents.result(id)));
    });
    for (const model of Object.values(models)) model.verify();
    expect(results.map((r) => [r.success, r.finalAnswer])).toEqual([[true, 'read six pages'], [true, 'wrote it down'], [true, 'read three pages']]);
    expect(written).toEqual(['notes.txt: page one']);
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
    expect(today.written).toEqual(written);
    const counts = ({ iterations, modelCalls, toolCalls, continuations }: (typeof results)[number]) => ({ iterations, modelCalls, toolCalls, continuations });
    expect(results.map(counts)).toEqual(today.results.map(counts));
    for (const name of ['question', 'approval', 'inFlight'] as const) expect(conversations(models[name].calls)).toEqual(conversations(today.models[name].calls));

    // The chain reads whole across both releases' runs, every page in order once, and the audit
    // rebuilds every prompt from the histories both releases recorded.
    const pagesRead = { [question]: 6, [approval]: 2, [inFlight]: 3 };
    for (const [id, model] of [[question, models.question], [approval, models.approval], [inFlight, models.inFlight]] as const) {
      const chain = await agents.chain(id, 'auditor');
      expect(chain.steps.map((s) => s.stepNumber)).toEqual(chain.steps.map((_, i) => i + 1));
      const read = chain.steps.flatMap((s: ReasoningStep) => (s.type === 'tool_result' && typeof s.toolResult.result === 'string' && s.toolResult.result.startsWith('page ') ? [s.toolResult.result] : []));
      expect(read).toEqual(Array.from({ length: pagesRead[id]! }, (_, i) => pageText(i + 1)));
      const audited = await modelCallsOfRun(env.client, id, await runIdsOf(env.client, id), chain.steps);
      expect(audited.map((c) => c.request.messages)).toEqual(model.calls.map((c) => c.messages));
    }
  });
});
