import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeMessagesServer, toolUse, type FakeMessagesServer, type FakeRequestBody } from '../../src/testing';
import { StatusAttribute, type TokenUsage } from '../../src/domain';
import { costOf } from '../../src/domain/model/pricing';
import { thoughts } from '../helpers/chain-helpers';
import { cliEnv, PROJECT_ROOT, runCli, spawnCli, type CliProcess } from '../helpers/cli-process';
import { toolResultsIn, writeRecordingToolsModule } from '../helpers/recording-tools';
import { useTestEnv } from '../helpers/temporal-env';
import { createKeyringFile } from '../../src/server/signing/create-keyring-file';
import { loadDecisionSigner } from '../../src/server/signing/load-decision-signer';
import { AgentClient } from '../../src/client/agent-client';

const EventType = temporal.api.enums.v1.EventType;
const MODEL = 'claude-sonnet-4-6';
const TOKEN_BUDGET = 5_000;
const RAISE = 10_000;
/** What the provider reports for each turn: the second crosses the budget, so the third waits for a raise. */
const USAGE_BY_TURN = [
  { input_tokens: 1_000, output_tokens: 50 },
  { input_tokens: 4_500, output_tokens: 50 },
  { input_tokens: 1_000, output_tokens: 40 },
];
const asUsage = (u: { input_tokens: number; output_tokens: number }): TokenUsage => ({
  inputTokens: u.input_tokens,
  outputTokens: u.output_tokens,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});
const spent = (turns: number) =>
  USAGE_BY_TURN.slice(0, turns).reduce((sum, u) => sum + u.input_tokens + u.output_tokens, 0);

const turnOf = toolResultsIn;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** From the run's history: completed activities with the attempt each completed on, scheduled ones, and updates. */
async function completedActivities(client: Client, workflowId: string) {
  const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const typeOf = new Map<string, string>();
  const attemptOf = new Map<string, number>();
  for (const e of events) {
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled) typeOf.set(String(e.eventId), scheduled.activityType?.name ?? '?');
    const started = e.activityTaskStartedEventAttributes;
    if (started) attemptOf.set(String(started.scheduledEventId), started.attempt ?? 1);
  }
  const count = (type: number) => events.filter((e) => e.eventType === type).length;
  return {
    completed: events
      .filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED)
      .map((e) => {
        const id = String(e.activityTaskCompletedEventAttributes?.scheduledEventId);
        return { type: typeOf.get(id) ?? '?', attempt: attemptOf.get(id) ?? 0 };
      }),
    scheduled: [...typeOf.values()],
    updatesAccepted: count(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED),
    updatesCompleted: count(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED),
  };
}

const env = useTestEnv();
let fake: FakeMessagesServer;
const workers: CliProcess[] = [];
afterAll(async () => {
  for (const w of workers) w.child.kill('SIGKILL');
  await fake?.close();
});

describe("a worker SIGKILLed around a budget pause (onBudget: 'ask')", () => {
  it('while paused and right after the raise: the run finishes, one raise, and the ledger counts each call once', async () => {
    const dir = fs.mkdtempSync(path.join(PROJECT_ROOT, '.thoughtline/tmp/budget-kill-'));
    const logFile = path.join(dir, 'side-effects.jsonl');
    let secondKilled = false;
    // Stateless model: the turn follows from the conversation, so a retried attempt gets the same
    // reply and usage. The third turn (the one after the raise) hangs until the worker is killed.
    const model = (body: FakeRequestBody) => {
      const turn = turnOf(body);
      const usage = USAGE_BY_TURN[turn]!;
      if (turn >= 2) return toolUse('finish', { result: 'recorded 2' }, { usage, delayMs: secondKilled ? 0 : 60_000 });
      return toolUse('record', { n: turn + 1 }, { usage, text: `Recording entry ${turn + 1}.` });
    };
    fake = await startFakeMessagesServer({ script: Array.from({ length: 10 }, () => model) });
    const taskQueue = `budget-kill-${randomUUID()}`;
    const workerEnv = cliEnv({
      THOUGHTLINE_TASK_QUEUE: taskQueue,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.baseUrl,
    });
    const tools = writeRecordingToolsModule(dir, logFile, 'budget-kill-tools.js');
    const startWorker = async () => {
      const worker = spawnCli(['worker', '--tools', tools], workerEnv);
      workers.push(worker);
      await worker.waitFor(/worker polling task queue/);
      return worker;
    };
    const kill = async (worker: CliProcess) => {
      worker.child.kill('SIGKILL');
      await worker.exited;
    };

    // 1. The run pauses at its budget after the second call; the first worker dies while it waits.
    const first = await startWorker();
    const agents = new AgentClient({ client: env.client, taskQueue });
    // The run holds a keyring's public keys; the CLI signs the raise with it, so alice's role counts.
    const keyring = path.join(dir, 'signing-keys.json');
    createKeyringFile(keyring);
    const handle = await agents.start({
      task: 'Record two entries',
      // Killed attempts are reaped by the 5 s heartbeat timeout; a short timeoutMs could time out a
      // live worker's attempt on a loaded machine after the fake answered it (crash.test.ts says why).
      model: { provider: 'anthropic', model: MODEL, timeoutMs: 60_000 },
      tokenBudget: TOKEN_BUDGET,
      onBudget: 'ask',
      signedDecisions: { publicKeys: loadDecisionSigner(keyring).publicKeys(), required: false },
    });
    let paused = await agents.status(handle.workflowId);
    for (let i = 0; i < 300 && !paused.budgetPause; i++, await wait(100))
      paused = await agents.status(handle.workflowId);
    expect(paused.budgetPause).toMatchObject({ reason: 'token_budget', spent: { tokens: spent(2), modelCalls: 2 } });
    expect((await handle.describe()).typedSearchAttributes.get(StatusAttribute)).toBe('awaiting_budget');
    await kill(first);

    // 2. A second worker takes the raise (through the CLI) and dies as soon as the next model call is asked.
    const second = await startWorker();
    const raised = await runCli(
      ['raise-budget', handle.workflowId, '--tokens', String(RAISE), '--as', 'alice', '--roles', 'developer'],
      { ...workerEnv, THOUGHTLINE_SIGNING_KEYS: keyring },
    );
    expect(raised.code, raised.stderr).toBe(0);
    expect(raised.stdout).toMatch(/by alice: Budget raised; the run goes on\./);
    for (let i = 0; i < 300 && !fake.requests.some((r) => turnOf(r.body) === 2); i++) await wait(20);
    expect(fake.requests.filter((r) => turnOf(r.body) === 2)).toHaveLength(1);
    await kill(second);
    secondKilled = true;

    // 3. A third worker retries the call that died in flight and finishes the run.
    await startWorker();
    const result = await handle.result();
    expect(result).toMatchObject({ success: true, finalAnswer: 'recorded 2', modelCalls: 3, toolCalls: 2 });

    // The fake was asked each turn once, except the one killed in flight, asked again.
    const asked = fake.requests.map((r) => ({ turn: turnOf(r.body), aborted: r.clientAborted }));
    expect(asked).toEqual([
      { turn: 0, aborted: false },
      { turn: 1, aborted: false },
      { turn: 2, aborted: true },
      { turn: 2, aborted: false },
    ]);
    expect(fake.errors).toEqual([]);
    // Each tool side effect happened once, both by the first worker (before the pause).
    const effects = fs
      .readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { n: number; pid: number })
      .map(({ n, pid }) => ({ n, pid }));
    expect(effects).toEqual([
      { n: 1, pid: first.child.pid },
      { n: 2, pid: first.child.pid },
    ]);

    // The ledger is exactly the sum of the three answered calls: the aborted attempt and two kills added nothing.
    const usage: TokenUsage = USAGE_BY_TURN.map(asUsage).reduce((a, b) => ({
      inputTokens: a.inputTokens + b.inputTokens,
      outputTokens: a.outputTokens + b.outputTokens,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    }));
    const costUsd = USAGE_BY_TURN.reduce((sum, u) => sum + costOf(MODEL, asUsage(u)), 0);
    expect(result.usage).toEqual(usage);
    expect(result.costUsd).toBeCloseTo(costUsd, 9);
    const status = await agents.status(handle.workflowId);
    // (A completed run's status is rebuilt from its result, which keeps no budget: the raise is checked in the chain.)
    expect(status).toMatchObject({ status: 'completed', usage });
    expect(status.costUsd).toBeCloseTo(costUsd, 9);

    // One raise in the chain and in history; one pause; three model calls, the third on its second attempt.
    const raiseSteps = result.chain.steps.filter((s) => s.type === 'thinking' && s.fromPerson?.kind === 'budget');
    expect(raiseSteps).toHaveLength(1);
    expect(raiseSteps[0]).toMatchObject({ fromPerson: { kind: 'budget', by: 'alice' } });
    expect(thoughts(raiseSteps)[0]).toMatch(
      new RegExp(`^Budget raised by alice \\(developer\\): \\+${RAISE} tokens \\(now ${TOKEN_BUDGET + RAISE} tokens`),
    );
    expect(thoughts(result.chain.steps).filter((t) => t.startsWith('Paused at the budget'))).toHaveLength(1);
    const history = await completedActivities(env.client, handle.workflowId);
    expect(history.updatesAccepted).toBe(1);
    expect(history.updatesCompleted).toBe(1);
    expect(history.scheduled.filter((t) => t === 'callModel')).toHaveLength(3);
    expect(history.completed.filter((a) => a.type === 'callModel').map((a) => a.attempt)).toEqual([1, 1, 2]);
    expect(history.completed.filter((a) => a.type === 'runTool')).toHaveLength(2);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 180_000);
});
