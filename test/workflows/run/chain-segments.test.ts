import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, useTool } from '../../../src/activities/models/scripted-model';
import { chainLength, type AgentInput } from '../../../src/shared';
import { defineTool } from '../../../src/tools/define-tool';
import { chainQuery } from '../../../src/workflows/messages';
import { CARRIED_LIMITS } from '../../../src/workflows/run/chain-tail';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const ITERATIONS = 80;
/** Each handover comes after 20 iterations (~80 steps): from the third on, the chain is longer than what is carried. */
const EVERY = 20;

const count = defineTool({ name: 'count', description: 'Counts', input: z.object({ n: z.number() }), execute: ({ n }) => `counted ${n}` });

/** The input each Temporal run of the workflow started with, oldest first. */
async function runInputs(workflowId: string): Promise<Array<{ runId: string; input: AgentInput }>> {
  const runs: Array<{ runId: string; start: number }> = [];
  for await (const run of env.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runs.push({ runId: run.runId, start: run.startTime.getTime() });
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
  it('every handover carries at most the limit of steps; chain() joins all of them in order, and a page reaches back', { timeout: 120_000 }, async () => {
    const turns = Array.from({ length: ITERATIONS }, (_, i) => ({ content: [useTool('count', { n: i + 1 })] }));
    const model = createScriptedModel([...turns, { content: [useTool('finish', { result: 'done' })] }]);
    const h = await createHarness(env, { tools: [count], models: { scripted: model } });
    await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ task: 'Count to eighty', model: SCRIPTED_MODEL, maxIterations: ITERATIONS + 5, continueAsNewEvery: EVERY });
      const result = await handle.result();
      expect(result).toMatchObject({ success: true, iterations: ITERATIONS + 1, toolCalls: ITERATIONS });
      expect(result.continuations).toBeGreaterThanOrEqual(3);

      // What each handover carried: never more than the limit, and the earlier steps by reference.
      const inputs = await runInputs(handle.workflowId);
      expect(inputs.length).toBe(result.continuations + 1);
      const carried = inputs.slice(1).map(({ input }) => input.continued!.chain);
      for (const chain of carried) expect(chain.steps.length).toBeLessThanOrEqual(CARRIED_LIMITS.steps);
      const cut = carried.filter((chain) => chain.earlier !== undefined);
      expect(cut.length).toBeGreaterThanOrEqual(1);
      for (const chain of cut) {
        // The pointer names the run that handed over, and the carried tail starts right after it.
        const handedOver = inputs[inputs.findIndex(({ input }) => input.continued?.chain === chain) - 1]!;
        expect(chain.earlier!.runId).toBe(handedOver.runId);
        expect(chain.steps[0]!.stepNumber).toBe(chain.earlier!.throughStep + 1);
      }

      // The result holds the latest steps; the run's chain joins every Temporal run's, 1…N.
      const total = chainLength(result.chain);
      expect(result.chain.earlier).toBeDefined();
      expect(result.chain.steps.length).toBeLessThan(total);
      const whole = await h.agents.chain(handle.workflowId, 'auditor');
      expect(whole.steps.map((s) => s.stepNumber)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      expect(whole.earlier).toBeUndefined();
      const counted = whole.steps.flatMap((s) => (s.type === 'tool_result' && s.model === undefined ? [s.toolResult.result] : []));
      expect(counted).toEqual([...Array.from({ length: ITERATIONS }, (_, i) => `counted ${i + 1}`), 'done']);

      // A page far back is read from the Temporal run that holds it; one at the end needs no other run.
      const early = await h.agents.chain(handle.workflowId, 'auditor', { afterStep: 10, limit: 5 });
      expect(early.steps.map((s) => s.stepNumber)).toEqual([11, 12, 13, 14, 15]);
      expect(early.steps).toEqual(whole.steps.slice(10, 15));
      const last = await h.agents.chain(handle.workflowId, 'auditor', { afterStep: total - 3 });
      expect(last.steps.map((s) => s.stepNumber)).toEqual([total - 2, total - 1, total]);

      // A closed Temporal run still answers its own chain, which is where `earlier` points.
      const first = await env.client.workflow.getHandle(handle.workflowId, inputs[0]!.runId).query(chainQuery, 'auditor', { afterStep: 0, limit: 3 });
      expect(first.steps.map((s) => s.stepNumber)).toEqual([1, 2, 3]);
      expect((await h.agents.status(handle.workflowId)).steps).toBe(total);
    });
    model.verify();
  });

  it('refuses a page it cannot read, failing the query and not the run', { timeout: 60_000 }, async () => {
    const model = createScriptedModel([{ content: [useTool('ask_person', { question: 'Go on?' })] }, { content: [useTool('finish', { result: 'ok' })] }]);
    const h = await createHarness(env, { tools: [], models: { scripted: model } });
    await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ task: 'Ask', model: SCRIPTED_MODEL, allowQuestions: true });
      for (let i = 0; i < 100 && !(await h.agents.status(handle.workflowId)).openQuestion; i++) await new Promise((r) => setTimeout(r, 100));
      await expect(handle.query(chainQuery, 'developer', { afterStep: -1 } as never)).rejects.toThrow(/afterStep must be a whole number from 0/);
      await expect(handle.query(chainQuery, 'developer', { limit: 0 } as never)).rejects.toThrow(/limit must be a whole number from 1 to 5000/);
      await expect(handle.query(chainQuery, 'developer', { before: 3 } as never)).rejects.toThrow(/has no "before"/);
      const page = await handle.query(chainQuery, 'developer', { afterStep: 1, limit: 1 });
      expect(page.steps.map((s) => s.stepNumber)).toEqual([2]);
      await h.agents.answer(handle.workflowId, 'yes', 'tester');
      expect(await handle.result()).toMatchObject({ success: true });
    });
  });
});
