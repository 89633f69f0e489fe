import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, useTool } from '../../../src/activities/models/scripted-model';
import { readChainArchive } from '../../../src/client/chain/read-chain-archive';
import { chainLength, type AgentInput } from '../../../src/domain';
import { defineTool } from '../../../src/tools/define-tool';
import { chainQuery } from '../../../src/workflows/messages';
import { CARRIED_LIMITS, MAX_HELD_STEPS } from '../../../src/workflows/run/handover/chain-tail';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

/** About 1,700 steps: over MAX_HELD_STEPS twice, so the run hands over by its step count alone. */
const ITERATIONS = 420;

const count = defineTool({
  name: 'count',
  description: 'Counts',
  input: z.object({ n: z.number() }),
  execute: ({ n }) => `counted ${n}`,
});

/** The input each Temporal run of the workflow started with, oldest first. */
async function runInputs(workflowId: string): Promise<Array<{ runId: string; input: AgentInput }>> {
  const runs: Array<{ runId: string; start: number }> = [];
  for await (const run of env.client.workflow.list({ query: `WorkflowId = '${workflowId}'` }))
    runs.push({ runId: run.runId, start: run.startTime.getTime() });
  runs.sort((a, b) => a.start - b.start);
  return Promise.all(
    runs.map(async ({ runId }) => {
      const history = await env.client.workflow.getHandle(workflowId, runId).fetchHistory();
      const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
      const payload = started?.input?.payloads?.[0];
      const input = defaultPayloadConverter.fromPayload(payload!) as AgentInput;
      return { runId, input };
    }),
  );
}

describe('a long run carries a bounded tail of its chain, and its whole chain is still read', () => {
  it(
    'every handover carries at most the limit and archives the rest once; the whole chain and its pages are read with no worker',
    { timeout: 180_000 },
    async () => {
      const turns = Array.from({ length: ITERATIONS }, (_, i) => ({ content: [useTool('count', { n: i + 1 })] }));
      const model = createScriptedModel([...turns, { content: [useTool('finish', { result: 'done' })] }]);
      const h = await createHarness(env, { tools: [count], models: { scripted: model } });
      const handle = await h.worker.runUntil(async () => {
        // A small history per iteration and a high size threshold: the step count is what hands over.
        const started = await h.agents.start({
          task: 'Count',
          model: SCRIPTED_MODEL,
          maxIterations: ITERATIONS + 5,
          maxContextChars: 4_000,
          continueAsNewAtBytes: 40_000_000,
        });
        await started.result();
        return started;
      });
      model.verify();
      // The worker is gone: a finished run's chain is read from its result and the handovers' archives.
      const result = await handle.result();
      expect(result).toMatchObject({ success: true, iterations: ITERATIONS + 1, toolCalls: ITERATIONS });
      expect(result.continuations).toBeGreaterThanOrEqual(2);

      // What each handover carried: never more than the limit; what it left behind, once, in order.
      const inputs = await runInputs(handle.workflowId);
      expect(inputs.length).toBe(result.continuations + 1);
      const continued = inputs.slice(1).map(({ input }) => input.continued!);
      let archivedThrough = 0;
      for (const [i, state] of continued.entries()) {
        // The archive is recorded once, in the run that handed over (a local activity's marker), not in the next input.
        expect(state.archive).toBeUndefined();
        const archive = (await readChainArchive(env.client, handle.workflowId, inputs[i]!.runId))!;
        expect(state.chain.steps.length).toBeLessThanOrEqual(CARRIED_LIMITS.steps);
        // The rule is checked after each iteration, which adds four steps here (a model call and a
        // tool call), five when the conversation is compacted (a note): at most four past the limit.
        expect(state.chain.steps.length + archive.steps.length).toBeLessThanOrEqual(MAX_HELD_STEPS + 4);
        // The pointer names the run that handed over; the archive ends where the carried tail starts.
        expect(state.chain.earlier!.runId).toBe(inputs[i]!.runId);
        expect(archive.steps[0]!.stepNumber).toBe(archivedThrough + 1);
        expect(archive.steps.at(-1)!.stepNumber).toBe(state.chain.earlier!.throughStep);
        expect(state.chain.steps[0]!.stepNumber).toBe(state.chain.earlier!.throughStep + 1);
        archivedThrough = state.chain.earlier!.throughStep;
      }

      // The result holds the latest steps; the run's chain joins every Temporal run's, 1…N.
      const total = chainLength(result.chain);
      expect(result.chain.steps.length).toBeLessThan(total);
      const whole = await h.agents.chain(handle.workflowId, 'auditor');
      expect(whole.steps.map((s) => s.stepNumber)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      expect(whole.earlier).toBeUndefined();
      const counted = whole.steps.flatMap((s) =>
        s.type === 'tool_result' && s.model === undefined ? [s.toolResult.result] : [],
      );
      expect(counted).toEqual([...Array.from({ length: ITERATIONS }, (_, i) => `counted ${i + 1}`), 'done']);

      // Pages anywhere: far back (from the first archive), and at the end (from the result alone).
      const early = await h.agents.chain(handle.workflowId, 'auditor', { afterStep: 10, limit: 5 });
      expect(early.steps.map((s) => s.stepNumber)).toEqual([11, 12, 13, 14, 15]);
      expect(early.steps).toEqual(whole.steps.slice(10, 15));
      const last = await h.agents.chain(handle.workflowId, 'auditor', { afterStep: total - 3 });
      expect(last.steps.map((s) => s.stepNumber)).toEqual([total - 2, total - 1, total]);
    },
  );

  it(
    'a closed Temporal run still answers its own chain: how runs recorded before archives are read',
    { timeout: 120_000 },
    async () => {
      const turns = Array.from({ length: 60 }, (_, i) => ({ content: [useTool('count', { n: i + 1 })] }));
      const model = createScriptedModel([...turns, { content: [useTool('finish', { result: 'done' })] }]);
      const h = await createHarness(env, { tools: [count], models: { scripted: model } });
      await h.worker.runUntil(async () => {
        const handle = await h.agents.start({
          task: 'Count',
          model: SCRIPTED_MODEL,
          maxIterations: 70,
          continueAsNewEvery: 25,
        });
        await handle.result();
        const [first] = await runInputs(handle.workflowId);
        const chain = await env.client.workflow
          .getHandle(handle.workflowId, first!.runId)
          .query(chainQuery, 'auditor', { afterStep: 0, limit: 3 });
        expect(chain.steps.map((s) => s.stepNumber)).toEqual([1, 2, 3]);
      });
      model.verify();
    },
  );

  it('refuses a page it cannot read, failing the query and not the run', { timeout: 60_000 }, async () => {
    const model = createScriptedModel([
      { content: [useTool('ask_person', { question: 'Go on?' })] },
      { content: [useTool('finish', { result: 'ok' })] },
    ]);
    const h = await createHarness(env, { tools: [], models: { scripted: model } });
    await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ task: 'Ask', model: SCRIPTED_MODEL, allowQuestions: true });
      for (let i = 0; i < 100 && !(await h.agents.status(handle.workflowId)).openQuestion; i++)
        await new Promise((r) => setTimeout(r, 100));
      await expect(handle.query(chainQuery, 'developer', { afterStep: -1 } as never)).rejects.toThrow(
        /afterStep must be a whole number from 0/,
      );
      await expect(handle.query(chainQuery, 'developer', { limit: 0 } as never)).rejects.toThrow(
        /limit must be a whole number from 1 to 5000/,
      );
      await expect(handle.query(chainQuery, 'developer', { before: 3 } as never)).rejects.toThrow(/has no "before"/);
      const page = await handle.query(chainQuery, 'developer', { afterStep: 1, limit: 1 });
      expect(page.steps.map((s) => s.stepNumber)).toEqual([2]);
      await h.agents.answer(handle.workflowId, 'yes', 'tester');
      expect(await handle.result()).toMatchObject({ success: true });
    });
  });
});
