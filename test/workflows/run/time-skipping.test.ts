import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelProvider } from '../../../src/activities';
import { createScriptedModel, say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import { findTestServer, testServerPath } from '../../../src/dev-server/install/find-or-install-test-server';
import type { InstallAttempt } from '../../../src/dev-server/install/install-temporal-cli';
import { installTestServer } from '../../../src/dev-server/install/install-test-server';
import { findProjectRoot } from '../../../src/dev-server/project-paths';
import { IterationAttribute, ModelAttribute, StatusAttribute } from '../../../src/domain';
import { resolveStallUpdate, statusQuery } from '../../../src/workflows/messages';
import { thoughts } from '../../helpers/chain-helpers';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness } from '../../helpers/temporal-env';
import { createTimeSkippingEnv } from '../../helpers/time-skipping-env';
import { holdAfter } from '../../helpers/approval-helpers';
import { testTools } from '../../helpers/test-tools';

const EventType = temporal.api.enums.v1.EventType;
const DAY_MS = 86_400_000;
const THIRTY_DAYS_MS = 30 * DAY_MS;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// How long the tests wait for a run to reach its question in real time. A run gets there in about 2 s
// idle, but CI once took over 20 s on a loaded machine; the days it then waits are skipped, not lived.
const REACH_QUESTION_MS = 90_000;
// Real time a whole test may take: minutes at worst, where the days it covers would take weeks.
const WALL_LIMIT_MS = 150_000;
const TEST_TIMEOUT_MS = 180_000;

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await createTimeSkippingEnv();
});
afterAll(async () => env?.teardown());

const repeat = (id: string): ScriptedTurn => ({ content: [useTool('lookup', { key: 'alpha' }, id)] });
/** Looks up alpha, then repeats the identical call: the third is warned, the fourth stalls the run. */
const stallingTurns = (prefix: string): ScriptedTurn[] => [
  { content: [say('Looking up alpha.'), useTool('lookup', { key: 'alpha' }, `${prefix}1`)] },
  repeat(`${prefix}2`),
  repeat(`${prefix}3`),
  repeat(`${prefix}4`),
];

/** The dev-server harness (no workflow cache: every task replays) on the time-skipping server, with the test tools. */
async function harness(model: ModelProvider) {
  const { tools, log } = testTools();
  const server = { client: env.client, nativeConnection: env.nativeConnection, namespace: env.namespace ?? 'default' };
  return { ...(await createHarness(server, { tools, models: { scripted: model } })), log };
}

describe('agentWorkflow on the time-skipping test server', () => {
  it(
    "a stalled run that asks 'continue?' and hears nothing for 30 days ends 'stalled', in seconds of real time",
    async () => {
      const summary = 'Summary: alpha is 50. Nobody said whether to go on, so I stopped.';
      const model = createScriptedModel([...stallingTurns('toolu_t'), { content: [say(summary)] }]);
      const { worker, log, agents } = await harness(model);

      const wallStart = Date.now();
      const serverStart = await env.currentTimeMs();
      // Awaiting result() through the test environment's client lets the server skip to the next timer.
      const { result, description, history } = await worker.runUntil(async () => {
        const handle = await agents.start({
          task: 'Find alpha.',
          model: SCRIPTED_MODEL,
          stallThreshold: 3,
          onStall: 'ask',
          stallQuestionTimeoutMs: THIRTY_DAYS_MS,
        });
        const result = await handle.result();
        return { result, description: await handle.describe(), history: await handle.fetchHistory() };
      });
      const wallMs = Date.now() - wallStart;
      const skippedMs = (await env.currentTimeMs()) - serverStart;
      model.verify();

      expect(result).toMatchObject({
        success: false,
        terminationReason: 'stalled',
        finalAnswer: summary,
        modelCalls: 5,
        toolCalls: 2,
        iterations: 4,
      });
      expect(log.calls).toHaveLength(2);
      const said = thoughts(result.chain.steps);
      const stalledAt = said.indexOf(
        'Stalled: it called lookup with the same arguments 4 times in a row, after being told once.',
      );
      expect(stalledAt).toBeGreaterThanOrEqual(0);
      expect(said[stalledAt + 1]).toBe('Nobody answered "continue?" in time; stopping.');
      expect(model.calls[4]?.toolChoice).toBe('none');
      expect(result.chain.steps.at(-1)?.type).toBe('synthesis');

      // Workflow time moved 30 days (the wait is the whole run, nothing after it waits); the test did not.
      expect(result.executionTimeMs).toBeGreaterThanOrEqual(THIRTY_DAYS_MS);
      expect(result.executionTimeMs).toBeLessThan(THIRTY_DAYS_MS + DAY_MS);
      expect(skippedMs).toBeGreaterThanOrEqual(THIRTY_DAYS_MS);
      expect(wallMs).toBeLessThan(WALL_LIMIT_MS);

      // The wait is one durable 30-day timer in the history, and it fired rather than being cancelled.
      const events = history.events ?? [];
      // No workflow task failed (an API the test server lacks would show up here, retried forever).
      expect(events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED)).toEqual([]);
      const timers = events.filter((e) => e.eventType === EventType.EVENT_TYPE_TIMER_STARTED);
      const thirtyDayTimers = timers.filter(
        (e) => Number(e.timerStartedEventAttributes?.startToFireTimeout?.seconds) === THIRTY_DAYS_MS / 1000,
      );
      expect(thirtyDayTimers).toHaveLength(1);
      const timerId = thirtyDayTimers[0]?.timerStartedEventAttributes?.timerId;
      expect(
        events
          .filter((e) => e.eventType === EventType.EVENT_TYPE_TIMER_FIRED)
          .map((e) => e.timerFiredEventAttributes?.timerId),
      ).toContain(timerId);

      // The search attributes set at start and upserted by the workflow reached the server.
      expect(description.status.name).toBe('COMPLETED');
      expect(description.typedSearchAttributes.get(StatusAttribute)).toBe('stalled');
      expect(description.typedSearchAttributes.get(ModelAttribute)).toBe('scripted-model');
      expect(description.typedSearchAttributes.get(IterationAttribute)).toBe(4);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a person answers on day 29: the status query, the update and its validator work, and the run goes on',
    async () => {
      const script = createScriptedModel([
        ...stallingTurns('toolu_p'),
        { content: [say('Got it.'), useTool('finish', { result: 'alpha is 50' }, 'toolu_p5')] },
      ]);
      // The first model call waits for the test, so the early update meets a run with nothing pending.
      const firstCall = holdAfter(script, 0);
      const model = firstCall.model;
      const { worker, log, agents } = await harness(model);

      const wallStart = Date.now();
      const { result, early, waiting, answer } = await worker.runUntil(async () => {
        const handle = await agents.start({
          task: 'Find alpha.',
          model: SCRIPTED_MODEL,
          stallThreshold: 3,
          onStall: 'ask',
          stallQuestionTimeoutMs: THIRTY_DAYS_MS,
        });
        while (firstCall.held() === 0) await wait(20);
        const early = await handle
          .executeUpdate(resolveStallUpdate, { args: [{ continue: true, by: 'mallory' }] })
          .then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          );
        firstCall.release();
        let waiting = await handle.query(statusQuery);
        for (
          const deadline = Date.now() + REACH_QUESTION_MS;
          waiting.waitingFor === undefined && Date.now() < deadline;
        ) {
          await wait(100);
          waiting = await handle.query(statusQuery);
        }
        // Nothing awaits the result yet, so the server's clock is held; skip 29 days by hand.
        await env.sleep(THIRTY_DAYS_MS - DAY_MS);
        const answer = await handle.executeUpdate(resolveStallUpdate, {
          args: [{ continue: true, by: 'alice', note: 'day 29' }],
        });
        return { result: await handle.result(), early, waiting, answer };
      });
      const wallMs = Date.now() - wallStart;
      script.verify();

      expect('error' in early && early.error).toBeInstanceOf(WorkflowUpdateFailedError);
      expect('error' in early && early.error instanceof WorkflowUpdateFailedError && early.error.cause?.message).toBe(
        'This run is not waiting for a "continue?" decision.',
      );
      expect(waiting).toMatchObject({
        status: 'waiting',
        waitingFor: expect.stringContaining('The agent seems stuck'),
      });
      expect(answer).toBe('The run will continue.');

      expect(result).toMatchObject({
        success: true,
        terminationReason: 'success',
        finalAnswer: 'alpha is 50',
        modelCalls: 5,
        toolCalls: 3,
      });
      expect(log.calls).toHaveLength(3);
      expect(thoughts(result.chain.steps)).toContain('A person (alice) chose to continue: day 29.');
      // Answered inside the 30 days: the run saw 29 days pass, not the timeout.
      expect(result.executionTimeMs).toBeGreaterThanOrEqual(THIRTY_DAYS_MS - DAY_MS);
      expect(result.executionTimeMs).toBeLessThan(THIRTY_DAYS_MS);
      expect(wallMs).toBeLessThan(WALL_LIMIT_MS);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('approvals that wait for weeks, on the time-skipping test server', () => {
  const approver = { id: 'olga', roles: ['ops'] };

  it(
    'an approval decided on day 29 of a 30-day window runs the tool with the shown arguments',
    async () => {
      const model = createScriptedModel([
        { content: [say('Reading alpha needs approval.'), useTool('lookup', { key: 'alpha' }, 'toolu_w1')] },
        { content: [useTool('finish', { result: 'alpha is 50' }, 'toolu_w2')] },
      ]);
      const { worker, log, agents } = await harness(model);
      const wallStart = Date.now();
      const result = await worker.runUntil(async () => {
        const handle = await agents.start({
          task: 'Find alpha.',
          model: SCRIPTED_MODEL,
          approvals: { lookup: 'always' },
          approvalTimeoutMs: THIRTY_DAYS_MS,
        });
        let pending = await agents.pendingApprovals(handle.workflowId).catch(() => []);
        for (const deadline = Date.now() + REACH_QUESTION_MS; pending.length === 0 && Date.now() < deadline;) {
          await wait(100);
          pending = await agents.pendingApprovals(handle.workflowId).catch(() => []);
        }
        expect(pending.map((r) => r.callId)).toEqual(['toolu_w1']);
        // Nothing awaits the result, so the server's clock only moves when told to.
        await env.sleep(THIRTY_DAYS_MS - DAY_MS);
        expect(log.calls).toHaveLength(0);
        await agents.decide(handle.workflowId, { callId: 'toolu_w1', approved: true, by: approver });
        return handle.result();
      });
      model.verify();
      expect(result).toMatchObject({ success: true, finalAnswer: 'alpha is 50' });
      expect(log.calls.map((c) => c.args)).toEqual([{ key: 'alpha' }]);
      const record = result.chain.approvals?.[0];
      expect(record).toMatchObject({ status: 'approved', decidedBy: approver });
      const waited = Date.parse(record!.decidedAt!) - Date.parse(record!.requestedAt);
      expect(waited).toBeGreaterThanOrEqual(THIRTY_DAYS_MS - DAY_MS);
      expect(waited).toBeLessThan(THIRTY_DAYS_MS);
      expect(Date.now() - wallStart).toBeLessThan(WALL_LIMIT_MS);
    },
    TEST_TIMEOUT_MS,
  );

  it('nobody decides: after the default 7 days the call times out, the model is told, and the run goes on', async () => {
    const model = createScriptedModel([
      { content: [useTool('lookup', { key: 'alpha' }, 'toolu_d1')] },
      {
        content: [
          say('Nobody approved; I will answer without it.'),
          useTool('finish', { result: 'unknown' }, 'toolu_d2'),
        ],
      },
    ]);
    const { worker, log, agents } = await harness(model);
    const result = await worker.runUntil(async () =>
      (await agents.start({ task: 'Find alpha.', model: SCRIPTED_MODEL, approvals: { lookup: 'always' } })).result(),
    );
    model.verify();
    expect(log.calls).toHaveLength(0);
    expect(result).toMatchObject({ success: true, finalAnswer: 'unknown' });
    expect(result.chain.approvals?.[0]).toMatchObject({ callId: 'toolu_d1', status: 'timed_out' });
    expect(result.executionTimeMs).toBeGreaterThanOrEqual(7 * DAY_MS);
    const observation = model.calls[1]!.messages.at(-1)!.content[0]!;
    expect(observation).toMatchObject({
      type: 'tool_result',
      toolUseId: 'toolu_d1',
      isError: true,
      content: expect.stringContaining('nobody approved this call'),
    });
  });
});

describe('finding and installing the test server', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-ts-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('prefers THOUGHTLINE_TEST_SERVER, refuses a bad one, and otherwise finds the installed binary', () => {
    expect(findTestServer({ projectRoot: root, env: {} })).toBeUndefined();
    const installed = testServerPath(root);
    fs.mkdirSync(path.dirname(installed), { recursive: true });
    fs.writeFileSync(installed, '#!/bin/sh\n', { mode: 0o755 });
    expect(findTestServer({ projectRoot: root, env: {} })).toBe(installed);

    const explicit = path.join(root, 'my-test-server');
    fs.writeFileSync(explicit, '#!/bin/sh\n', { mode: 0o755 });
    expect(findTestServer({ projectRoot: root, env: { THOUGHTLINE_TEST_SERVER: explicit } })).toBe(explicit);
    expect(() =>
      findTestServer({ projectRoot: root, env: { THOUGHTLINE_TEST_SERVER: path.join(root, 'typo') } }),
    ).toThrow(/THOUGHTLINE_TEST_SERVER .*not an executable/);
  });

  it('installs only a binary that really serves: an impostor is refused, the next attempt is kept', async () => {
    const lines: string[] = [];
    const staged = (name: string, fill: (file: string) => void): InstallAttempt => ({
      name,
      run: async (stageDir) => {
        const file = path.join(stageDir, 'bin', 'temporal-test-server');
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fill(file);
        return file;
      },
    });
    const impostor = staged('impostor', (file) => fs.writeFileSync(file, '#!/bin/sh\necho hello\n'));
    // The real binary this suite's environment was started from.
    const real = staged('copy', (file) => fs.copyFileSync(findTestServer({ projectRoot: findProjectRoot() })!, file));

    const dest = testServerPath(root);
    await expect(installTestServer([impostor], dest, (l) => lines.push(l))).rejects.toThrow(
      /impostor: .*did not listen on its port \(exited with code 0\)/,
    );
    expect(fs.existsSync(dest)).toBe(false);
    expect(await installTestServer([impostor, real], dest, (l) => lines.push(l))).toBe(dest);
    expect(findTestServer({ projectRoot: root, env: {} })).toBe(dest);
    expect(lines.at(-1)).toBe(`installed the time-skipping test server at ${dest} (via copy)`);
    // No staging directories are left beside it.
    expect(fs.readdirSync(path.dirname(dest))).toEqual(['temporal-test-server']);
  });
});
