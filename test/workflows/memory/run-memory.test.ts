import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { bundleWorkflowCode } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentInput, type AgentInputInit, type Learning } from '../../../src/domain';
import { memoryWorkflowId } from '../../../src/domain/planning/agent-memory';
import { PROJECT_ROOT } from '../../helpers/cli-process';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { ScriptBook } from '../../helpers/people-helpers';
import { createHarness, useTestEnv, type AgentHarness } from '../../helpers/temporal-env';
import type { MemoryProbeResult } from './memory-probe-workflows';

const EventType = temporal.api.enums.v1.EventType;
const env = useTestEnv();
let bundlePath: string;
let h: AgentHarness;
let running: Promise<void>;
beforeAll(async () => {
  const { code } = await bundleWorkflowCode({
    workflowsPath: path.join(__dirname, 'memory-probe-workflows.ts'),
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} },
  });
  bundlePath = path.join(PROJECT_ROOT, `.thoughtline/tmp/memory-probe-${process.pid}.js`);
  fs.mkdirSync(path.dirname(bundlePath), { recursive: true });
  fs.writeFileSync(bundlePath, code);
  h = await createHarness(env, {
    tools: [],
    models: { scripted: new ScriptBook().provider },
    workflowBundlePath: bundlePath,
  });
  running = h.worker.run();
}, 120_000);
afterAll(async () => {
  h?.worker.shutdown();
  await running;
  fs.rmSync(bundlePath, { force: true });
});

/** A probe run: recalls the memory of `init`'s agent and tenant, then keeps `learnt`. */
async function probe(init: Partial<AgentInputInit>, learnt: Learning[] = []) {
  const input = AgentInput.parse({ task: 'probe memory', model: SCRIPTED_MODEL, ...init });
  const workflowId = `memory-probe-${randomUUID()}`;
  const handle = await env.client.workflow.start('memoryProbeWorkflow', {
    taskQueue: h.taskQueue,
    workflowId,
    args: [input, learnt],
  });
  const result = (await handle.result()) as MemoryProbeResult;
  const events = (await handle.fetchHistory()).events ?? [];
  /** The input of each activity the probe scheduled, by activity type. */
  const activities = events
    .filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
    .map((e) => {
      const a = e.activityTaskScheduledEventAttributes!;
      const payload = a.input?.payloads?.[0]?.data;
      return {
        type: a.activityType?.name,
        input: payload ? (JSON.parse(Buffer.from(payload).toString()) as unknown) : undefined,
      };
    });
  return { workflowId, ...result, activities };
}
const memoryOn = { planning: { memory: true } };
const memorySteps = (steps: MemoryProbeResult['steps']) =>
  steps.filter((s) => s.type === 'thinking' && s.purpose === 'memory');

describe('a run with planning.memory', () => {
  it('records nothing and runs no activity when memory is off', async () => {
    const agentName = `off-${randomUUID().slice(0, 8)}`;
    const off = await probe({ agentName }, [{ text: 'never kept' }]);
    expect(off.recalled).toEqual([]);
    expect(off.steps).toEqual([]);
    expect(off.activities).toEqual([]);
    await expect(env.client.workflow.getHandle(memoryWorkflowId(undefined, agentName)).describe()).rejects.toThrow();
  });

  it('the second run reads the first run’s learnings as one visible memory step, and keeps only its own; another tenant reads none', async () => {
    const agentName = `support-${randomUUID().slice(0, 8)}`;
    const caller = { id: 'alice', tenant: 'acme' };
    const first = await probe({ agentName, caller, ...memoryOn }, [
      { text: 'the v1 endpoint is gone; use v2', taskId: 't1' },
      { text: 'retry once on 429' },
    ]);
    expect(first.recalled).toEqual([]);
    expect(memorySteps(first.steps)).toEqual([
      expect.objectContaining({
        thought: `Memory: no learnings yet from earlier runs of agent ${agentName}.`,
        visibility: { level: 'full' },
      }),
    ]);
    expect(first.activities.map((a) => a.type)).toEqual(['readAgentMemory', 'keepAgentLearnings']);

    const second = await probe({ agentName, caller, ...memoryOn }, [{ text: 'cache the token' }]);
    // No word of "probe memory" is in either: the newest first.
    expect(second.recalled).toEqual([
      { text: 'retry once on 429', fromRun: first.workflowId, at: expect.any(String) },
      { text: 'the v1 endpoint is gone; use v2', taskId: 't1', fromRun: first.workflowId, at: expect.any(String) },
    ]);
    expect(second.steps).toHaveLength(1);
    expect(memorySteps(second.steps)[0]).toMatchObject({
      thought: `Memory: 2 of 2 learnings from an earlier run of agent ${agentName}, newest first, as none matches the words of this task:\n1. retry once on 429 (run ${first.workflowId})\n2. the v1 endpoint is gone; use v2 (run ${first.workflowId})`,
    });
    // Only its own learning is sent back: the recalled ones are in memory already.
    expect(second.activities[1]).toEqual({
      type: 'keepAgentLearnings',
      input: { tenant: 'acme', agent: agentName, runId: second.workflowId, learnings: [{ text: 'cache the token' }] },
    });
    expect((await h.agents.memory({ tenant: 'acme', agent: agentName })).map((e) => [e.text, e.fromRun])).toEqual([
      ['the v1 endpoint is gone; use v2', first.workflowId],
      ['retry once on 429', first.workflowId],
      ['cache the token', second.workflowId],
    ]);

    // Temporal actions of the memory for two runs: one start, one update each, one idle timer.
    const memoryEvents =
      (await env.client.workflow.getHandle(memoryWorkflowId('acme', agentName)).fetchHistory()).events ?? [];
    const count = (type: number) => memoryEvents.filter((e) => e.eventType === type).length;
    expect(count(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED)).toBe(1);
    expect(count(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED)).toBe(2);
    expect(count(EventType.EVENT_TYPE_TIMER_STARTED)).toBe(1);

    const other = await probe({ agentName, caller: { id: 'bob', tenant: 'globex' }, ...memoryOn });
    expect(other.recalled).toEqual([]);
    expect(memorySteps(other.steps)[0]).toMatchObject({ thought: expect.stringContaining('no learnings yet') });
    const noTenant = await probe({ agentName, ...memoryOn });
    expect(noTenant.recalled).toEqual([]);
  });

  it('recalls the learnings relevant to the task, however old, and says it ranked them', async () => {
    const agentName = `ranked-${randomUUID().slice(0, 8)}`;
    const filler = (i: number): Learning => ({ text: `note ${i}: the staging cluster restarts at night (${i})` });
    // 30 learnings; the oldest is the only one about refunds.
    const relevant = 'refunds over 500 EUR need a second approver from finance';
    await probe({ agentName, ...memoryOn }, [{ text: relevant }, ...Array.from({ length: 19 }, (_, i) => filler(i))]);
    await probe(
      { agentName, ...memoryOn },
      Array.from({ length: 10 }, (_, i) => filler(19 + i)),
    );
    expect(await h.agents.memory({ agent: agentName })).toHaveLength(30);

    const run = await probe({ agentName, task: 'Approve the refund of 800 EUR for order 1234', ...memoryOn });
    expect(run.recalled).toHaveLength(10);
    expect(run.recalled[0]).toMatchObject({ text: relevant });
    // The rest of the slots go to the newest, newest first.
    expect(run.recalled.slice(1).map((l) => l.text)).toEqual(Array.from({ length: 9 }, (_, i) => filler(28 - i).text));
    const [note] = memorySteps(run.steps);
    expect(note).toMatchObject({
      thought: expect.stringMatching(
        new RegExp(
          `^Memory: 10 of 30 learnings from 2 earlier runs of agent ${agentName}, ranked by relevance to this task \\(1 matches it; the rest are the newest\\):\n1\\. ${relevant} \\(run `,
        ),
      ),
    });
    // Workflow code from before ranking reads with the key alone: it still gets the newest ten, newest last.
    const old = await env.client.workflow.execute('oldMemoryReadWorkflow', {
      taskQueue: h.taskQueue,
      workflowId: `memory-old-read-${randomUUID()}`,
      args: [{ agent: agentName }],
    });
    expect((old as Learning[]).map((e) => e.text)).toEqual(Array.from({ length: 10 }, (_, i) => filler(19 + i).text));
  }, 60_000);

  it('redacts a secret in a learning before it is kept', async () => {
    const agentName = `secret-${randomUUID().slice(0, 8)}`;
    const key = 'sk-ant-api03-' + 'k'.repeat(60);
    await probe({ agentName, ...memoryOn }, [{ text: `the key is ${key}` }]);
    const [entry] = await h.agents.memory({ agent: agentName });
    expect(entry!.text).toContain('[REDACTED]');
    expect(entry!.text).not.toContain('k'.repeat(60));
  });

  it('a memory that cannot be read or kept is a visible step, never a failed run', async () => {
    const agentName = `squatted-${randomUUID().slice(0, 8)}`;
    // Something else holds the memory's workflow id: the query and the update both fail.
    const squatter = await env.client.workflow.start('squatterWorkflow', {
      taskQueue: h.taskQueue,
      workflowId: memoryWorkflowId(undefined, agentName),
    });
    try {
      const run = await probe({ agentName, ...memoryOn }, [{ text: 'lost' }]);
      expect(run.recalled).toEqual([]);
      const notes = memorySteps(run.steps).map((s) => (s.type === 'thinking' ? s.thought : ''));
      expect(notes).toHaveLength(2);
      expect(notes[0]).toMatch(
        new RegExp(
          `^Memory of agent ${agentName} was unavailable \\(.+\\); this run starts without earlier learnings\\.$`,
        ),
      );
      expect(notes[1]).toMatch(/^This run's 1 learnings were not kept in memory \(.+\)\.$/);
    } finally {
      await squatter.terminate('test over');
    }
    const tooLong = await probe({ agentName, caller: { id: 'u', tenant: 't'.repeat(101) }, ...memoryOn });
    expect(memorySteps(tooLong.steps)[0]).toMatchObject({
      thought: expect.stringMatching(/^Memory unavailable: .*1–100 characters/),
    });
    expect(tooLong.activities).toEqual([]);
  }, 60_000);
});
