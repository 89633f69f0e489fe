import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, useTool, type ScriptedModel } from '../../../src/activities/models/scripted-model';
import { AgentClient } from '../../../src/client/agent-client';
import type { AgentInputInit, AgentResult, ReasoningStep } from '../../../src/domain';
import { defineTool } from '../../../src/tools/define-tool';
import { createAgentWorker } from '../../../src/worker';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-cache-wf-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A worker with its own cache file (like createHarness, which has no cache option), replaying every task. */
async function cachingHarness(tools: Parameters<typeof createAgentWorker>[0]['tools'], model: ScriptedModel) {
  const taskQueue = `test-${randomUUID()}`;
  const cacheFile = path.join(dir, `${randomUUID()}.sqlite`);
  const worker = await createAgentWorker({
    connection: env.nativeConnection,
    namespace: inject('temporalNamespace'),
    taskQueue,
    tools,
    models: { scripted: model },
    secrets: [],
    cacheFile,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    workerOptions: { maxCachedWorkflows: 0 },
  });
  const agents = new AgentClient({ client: env.client, taskQueue });
  const run = async (init: AgentInputInit): Promise<AgentResult & { workflowId: string }> => {
    const handle = await agents.start({ requireThought: false, model: SCRIPTED_MODEL, ...init });
    return { ...(await handle.result()), workflowId: handle.workflowId };
  };
  return { worker, run, cacheFile, taskQueue };
}

const toolResults = (result: AgentResult): ReasoningStep[] =>
  result.chain.steps.filter((s) => s.type === 'tool_result' && s.model === undefined);
const durationOf = (step: ReasoningStep): number => (step.type === 'tool_result' ? step.toolResult.durationMs : NaN);
const modelReplies = (result: AgentResult): ReasoningStep[] =>
  result.chain.steps.filter((s) => s.type === 'tool_result' && s.model !== undefined);

/** Milliseconds from the run's runTool activity being scheduled to its completion, from the history. */
async function runToolSpanMs(workflowId: string): Promise<number> {
  const events = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const ms = (e: (typeof events)[number]) =>
    Number(e.eventTime!.seconds) * 1_000 + Math.floor((e.eventTime!.nanos ?? 0) / 1e6);
  const scheduled = events.findIndex((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool');
  const done = events.find(
    (e) => Number(e.activityTaskCompletedEventAttributes?.scheduledEventId) === Number(events[scheduled]!.eventId),
  );
  return ms(done!) - ms(events[scheduled]!);
}

/** A tool that counts its calls and takes a little while, so a cached call's time can be compared. */
function countingLookup() {
  const counter = { calls: 0 };
  const tool = defineTool({
    name: 'lookup',
    description: 'Looks a word up',
    input: z.object({ word: z.string() }),
    execute: async ({ word }) => {
      counter.calls += 1;
      await new Promise((r) => setTimeout(r, 150));
      return `definition of ${word}`;
    },
  });
  return { tool, counter };
}

const lookupTurns = (n: number) =>
  Array.from({ length: n }, () => [
    { content: [useTool('lookup', { word: 'temporal' }, 'call-1')] },
    { content: [useTool('finish', { result: 'done' }, 'call-2')] },
  ]).flat();

describe('tool results cached across runs (cache.tools)', () => {
  it(
    'a second run reuses the first run’s result (the tool does not run), says where it came from; another tenant, a shorter TTL or no cache runs it again',
    { timeout: 120_000 },
    async () => {
      const { tool, counter } = countingLookup();
      const model = createScriptedModel(lookupTurns(6));
      const h = await cachingHarness([tool], model);
      const cache = { ttlMs: 60_000, tools: ['lookup'] };
      await h.worker.runUntil(async () => {
        const first = await h.run({ task: 'Look up temporal', cache });
        expect(first.success).toBe(true);
        expect(counter.calls).toBe(1);
        expect(toolResults(first)[0]!.cacheHit).toBeUndefined();
        expect(fs.existsSync(h.cacheFile)).toBe(true);

        const second = await h.run({ task: 'Look up temporal', cache });
        expect(second.success).toBe(true);
        expect(counter.calls).toBe(1);
        const hit = toolResults(second)[0]!;
        expect(hit.cacheHit).toMatchObject({ kind: 'tool', fromRun: first.workflowId });
        expect(hit.cacheHit!.ageMs).toBeGreaterThanOrEqual(0);
        expect(hit).toMatchObject({ toolResult: { success: true, result: 'definition of temporal' } });
        expect(hit.type).toBe('tool_result');
        // The model read the same observation in both runs.
        expect(JSON.stringify(model.calls[3]!.messages)).toBe(JSON.stringify(model.calls[1]!.messages));
        const uncachedMs = durationOf(toolResults(first)[0]!);
        const cachedMs = durationOf(hit);
        const [firstSpan, secondSpan] = [await runToolSpanMs(first.workflowId), await runToolSpanMs(second.workflowId)];
        // Reported, not asserted: timings vary with the machine.
        console.log(
          `lookup tool call: uncached ${uncachedMs} ms, cached ${cachedMs} ms in the worker; runTool scheduled to completed ${firstSpan} ms vs ${secondSpan} ms`,
        );

        // Another tenant never reads the default tenant's entry.
        await h.run({ task: 'Look up temporal', cache, caller: { id: 'u', roles: [], tenant: 'globex' } });
        expect(counter.calls).toBe(2);

        // A run that accepts only entries younger than 50 ms does not take the first run's.
        await new Promise((r) => setTimeout(r, 100));
        await h.run({ task: 'Look up temporal', cache: { ttlMs: 50, tools: ['lookup'] } });
        expect(counter.calls).toBe(3);

        // That run stored its result for its own 50 ms: expired, it is never returned, even to a run accepting an hour.
        await new Promise((r) => setTimeout(r, 100));
        await h.run({ task: 'Look up temporal', cache: { ttlMs: 3_600_000, tools: ['lookup'] } });
        expect(counter.calls).toBe(4);

        // Without `cache` the tool runs, and its call carries nothing new.
        const plain = await h.run({ task: 'Look up temporal' });
        expect(counter.calls).toBe(5);
        const history = await env.client.workflow.getHandle(plain.workflowId).fetchHistory();
        const scheduled = (history.events ?? []).filter(
          (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool',
        );
        expect(scheduled).toHaveLength(1);
        const payload = scheduled[0]!.activityTaskScheduledEventAttributes!.input!.payloads![0]!.data!;
        expect(Buffer.from(payload).toString('utf8')).not.toContain('"cache"');
      });
      model.verify();
    },
  );

  it('never reuses a result of a tool whose effects are once', { timeout: 60_000 }, async () => {
    let calls = 0;
    const pay = defineTool({
      name: 'pay',
      description: 'Pays',
      input: z.object({ amount: z.number() }),
      effects: 'once',
      approval: 'never',
      execute: () => {
        calls += 1;
        return 'paid';
      },
    });
    const turns = Array.from({ length: 2 }, () => [
      { content: [useTool('pay', { amount: 5 }, 'call-1')] },
      { content: [useTool('finish', { result: 'done' }, 'call-2')] },
    ]).flat();
    const model = createScriptedModel(turns);
    const h = await cachingHarness([pay], model);
    await h.worker.runUntil(async () => {
      for (let i = 0; i < 2; i++) {
        const result = await h.run({ task: 'Pay 5', cache: { ttlMs: 60_000, tools: ['pay'] } });
        expect(toolResults(result)[0]!.cacheHit).toBeUndefined();
        // The run says, once, why the tool it listed is not cached.
        const notes = result.chain.steps.filter(
          (s) => s.type === 'thinking' && s.thought.startsWith('Not cached: pay'),
        );
        expect(notes).toHaveLength(1);
        expect(notes[0]).toMatchObject({ thought: expect.stringContaining("effects are 'once'") });
      }
    });
    expect(calls).toBe(2);
    model.verify();
  });
});

describe('model replies cached across runs (cache.model)', () => {
  it(
    'a second identical run is answered from the cache: no model call, usage and cost zero, the step says so',
    { timeout: 60_000 },
    async () => {
      const { tool, counter } = countingLookup();
      // One run's turns: the second run must not reach the model at all.
      const model = createScriptedModel(lookupTurns(1).map((t) => ({ ...t, costUsd: 0.01 })));
      const h = await cachingHarness([tool], model);
      const cache = { ttlMs: 60_000, tools: [], model: true };
      await h.worker.runUntil(async () => {
        const first = await h.run({ task: 'Look up temporal', cache });
        expect(model.calls).toHaveLength(2);
        expect(first.costUsd).toBeGreaterThan(0);
        const second = await h.run({ task: 'Look up temporal', cache });
        expect(second.success).toBe(true);
        expect(model.calls).toHaveLength(2);
        // The tool is not listed in cache.tools: it ran again.
        expect(counter.calls).toBe(2);
        const replies = modelReplies(second);
        expect(replies).toHaveLength(2);
        for (const reply of replies) {
          expect(reply.cacheHit).toMatchObject({ kind: 'model', fromRun: first.workflowId });
          expect(reply.costUsd).toBe(0);
          expect(reply.usage?.inputTokens).toBe(0);
        }
        expect(second.costUsd).toBe(0);
        expect(modelReplies(first).every((s) => s.cacheHit === undefined)).toBe(true);
      });
      model.verify();
    },
  );
});
