import { randomUUID } from 'node:crypto';
import type { Worker } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import { AgentClient } from '../../../src/client/agent-client';
import type { AgentResult, ToolResult } from '../../../src/domain';
import { defineTool, type Reconciled, type ToolDefinition } from '../../../src/tools/define-tool';
import { createAgentWorker } from '../../../src/worker';
import { waitForPending } from '../../helpers/approval-helpers';
import { thoughts, toolResultOf } from '../../helpers/chain-helpers';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { useTestEnv } from '../../helpers/temporal-env';

/**
 * Issue 46, effects that happen once: the worker running a `once` tool dies mid-call (forced to
 * stop without finishing it, so its heartbeats end and the server times the attempt out). The
 * call is not run again by Temporal: `reconcile` is asked when the tool has it, else a person
 * decides through the approval path, and the chain shows each step.
 */
const env = useTestEnv();

const script: ScriptedTurn[] = [
  {
    content: [
      { type: 'text', text: 'Acme is owed; pay it once.' },
      { type: 'tool_use', id: 'toolu_pay', name: 'transfer', input: { to: 'acme' } },
    ],
  },
  { content: [{ type: 'text', text: 'over' }] },
];

interface Effects {
  /** Idempotency keys of every execution, in order. */
  runs: string[];
  reconciled: string[];
}

/** A `once` tool whose first execution hangs (its worker is about to die) and later ones answer. */
function transferTool(effects: Effects, started: () => void, reconcile?: () => Reconciled<string>): ToolDefinition {
  return defineTool({
    name: 'transfer',
    description: 'Transfers money once',
    input: z.object({ to: z.string() }),
    effects: 'once',
    timeoutMs: 60_000,
    execute: async ({ to }, { idempotencyKey }) => {
      effects.runs.push(idempotencyKey);
      if (effects.runs.length === 1) {
        started();
        // Never settles: the worker dies with the call in flight.
        await new Promise(() => undefined);
      }
      return `sent to ${to}`;
    },
    ...(reconcile ? { reconcile: (key: string) => (effects.reconciled.push(key), reconcile()) } : {}),
  }) as ToolDefinition;
}

async function agentWorker(taskQueue: string, tools: ToolDefinition[], model: ReturnType<typeof createScriptedModel>) {
  return createAgentWorker({
    connection: env.nativeConnection,
    namespace: inject('temporalNamespace'),
    taskQueue,
    tools,
    models: { scripted: model },
    secrets: [],
    workflowBundle: { codePath: inject('workflowBundlePath') },
    // Stops without waiting for the hung call: its attempt is lost, as when the process is killed.
    workerOptions: { maxCachedWorkflows: 0, shutdownGraceTime: '10ms', shutdownForceTime: '300ms' },
  });
}

/**
 * Starts a run on a worker, kills that worker once the tool's first execution is in flight, and
 * goes on with a fresh worker: `then` runs with it polling, and the run's result comes back.
 */
async function runThroughKill(
  options: { reconcile?: () => Reconciled<string>; approvalTimeoutMs?: number },
  then: (agents: AgentClient, workflowId: string) => Promise<void>,
): Promise<{ result: AgentResult; effects: Effects }> {
  const taskQueue = `once-${randomUUID()}`;
  const effects: Effects = { runs: [], reconciled: [] };
  const model = createScriptedModel(script);
  let signalStarted!: () => void;
  const inFlight = new Promise<void>((resolve) => (signalStarted = resolve));
  const tools = [transferTool(effects, () => signalStarted(), options.reconcile)];
  const agents = new AgentClient({ client: env.client, taskQueue });

  const first: Worker = await agentWorker(taskQueue, tools, model);
  const running = first.run().catch(() => undefined);
  const handle = await agents.start({
    task: 'pay acme',
    model: SCRIPTED_MODEL,
    ...(options.approvalTimeoutMs ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
  });
  await inFlight;
  first.shutdown();
  await running;

  const second = await agentWorker(taskQueue, tools, model);
  const result = await second.runUntil(async () => {
    await then(agents, handle.workflowId);
    return handle.result();
  });
  model.verify();
  return { result, effects };
}

const observationOf = (result: AgentResult): ToolResult => toolResultOf(result.chain.steps, 'toolu_pay')!;

async function decide(
  agents: AgentClient,
  workflowId: string,
  decision: { approved: boolean; reason?: string; markDone?: boolean; result?: string },
) {
  const [pending] = await waitForPending(agents, workflowId);
  expect(pending).toMatchObject({ callId: 'toolu_pay:outcome-1', kind: 'outcome_unknown', toolName: 'transfer' });
  await agents.decide(workflowId, { callId: pending!.callId, by: { id: 'ops', roles: [] }, ...decision });
}

// The cases run side by side (five at a time, vitest's maxConcurrency): each waits about 5 s for the
// server to time its lost attempt out (the tool heartbeat timeout), on a task queue and workers of its own.
describe.concurrent('a once tool whose worker is killed mid-call', () => {
  it('without reconcile asks a person; "give up" leaves it run exactly once, outcome unknown', async () => {
    const { result, effects } = await runThroughKill({}, (agents, id) =>
      decide(agents, id, { approved: false, reason: 'will check the bank by hand' }),
    );
    expect(effects.runs).toHaveLength(1);
    expect(observationOf(result)).toMatchObject({
      success: false,
      outcome: 'unknown',
      error: expect.stringContaining('ops gave up on transfer after a lost attempt: will check the bank by hand'),
    });
    expect(result.chain.approvals).toEqual([
      expect.objectContaining({ callId: 'toolu_pay:outcome-1', kind: 'outcome_unknown', status: 'rejected' }),
    ]);
    expect(thoughts(result.chain.steps).join('\n')).toMatch(/Attempt 1 of transfer \(call toolu_pay\) was lost/);
    expect(result).toMatchObject({ success: true, finalAnswer: 'over' });
  });

  it('"run again" runs it a second time with the same idempotency key', async () => {
    const { result, effects } = await runThroughKill({}, (agents, id) => decide(agents, id, { approved: true }));
    expect(effects.runs).toHaveLength(2);
    expect(effects.runs[1]).toBe(effects.runs[0]);
    expect(observationOf(result)).toMatchObject({ success: true, result: 'sent to acme' });
    expect(thoughts(result.chain.steps).join('\n')).toMatch(/ops chose to run transfer \(call toolu_pay\) again/);
  });

  it('"mark done" records the person\'s result without running it again', async () => {
    const { result, effects } = await runThroughKill({}, (agents, id) =>
      decide(agents, id, { approved: true, markDone: true, result: 'bank shows transfer tr_9' }),
    );
    expect(effects.runs).toHaveLength(1);
    expect(observationOf(result)).toMatchObject({ success: true, result: 'bank shows transfer tr_9', outcome: 'done' });
    expect(result.chain.approvals?.[0]).toMatchObject({ status: 'approved', markedDone: true });
  });

  it('with reconcile saying it happened, nobody is asked and it is not run again', async () => {
    const { result, effects } = await runThroughKill(
      { reconcile: () => ({ happened: true, result: 'found transfer tr_7' }) },
      async () => undefined,
    );
    expect(effects.runs).toHaveLength(1);
    expect(effects.reconciled).toEqual([effects.runs[0]]);
    expect(observationOf(result)).toMatchObject({ success: true, result: 'found transfer tr_7', outcome: 'done' });
    expect(result.chain.approvals ?? []).toEqual([]);
    expect(thoughts(result.chain.steps).join('\n')).toMatch(/reconcile says the effect of call toolu_pay happened/);
  });

  it('with reconcile saying it did not happen, it runs again with the same key', async () => {
    const { result, effects } = await runThroughKill({ reconcile: () => ({ happened: false }) }, async () => undefined);
    expect(effects.runs).toEqual([effects.runs[0], effects.runs[0]]);
    expect(effects.reconciled).toHaveLength(1);
    expect(observationOf(result)).toMatchObject({ success: true, result: 'sent to acme' });
  });

  it('gives up when nobody decides within the approval timeout', async () => {
    const { result, effects } = await runThroughKill({ approvalTimeoutMs: 1_000 }, async () => undefined);
    expect(effects.runs).toHaveLength(1);
    expect(observationOf(result)).toMatchObject({
      success: false,
      outcome: 'unknown',
      error: expect.stringContaining('Nobody decided within'),
    });
    expect(result.chain.approvals?.[0]).toMatchObject({ status: 'timed_out' });
  });
});
