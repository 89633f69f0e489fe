import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import { defineTool } from '../../../src/tools/define-tool';
import { historySize } from '../../helpers/history';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const ITERATIONS = 500;
const OBSERVATION_CHARS = 4_096;
/** What the model is sent is bounded by this; each model call's input is in history, so it sets bytes per iteration. */
const CONTEXT_CHARS = 40_000;
/** Temporal's hard limits per run (DESIGN.md): 50 MiB and 51,200 events. */
const LIMIT_BYTES = 50 * 1024 * 1024;
const LIMIT_EVENTS = 51_200;

describe('a long run keeps its history small', () => {
  it(
    `runs ${ITERATIONS} iterations with 4 KB observations, continuing as new, its whole chain joined from its Temporal runs`,
    { timeout: 600_000 },
    async () => {
      const fetchPage = defineTool({
        name: 'fetch_page',
        description: 'Returns page n of a long document',
        input: z.object({ n: z.number().int() }),
        execute: ({ n }) => `page ${n}: ${'x'.repeat(OBSERVATION_CHARS - 12)}`,
      });
      const turns: ScriptedTurn[] = Array.from({ length: ITERATIONS - 1 }, (_, i) => ({
        content: [say(`Reading page ${i + 1}.`), useTool('fetch_page', { n: i + 1 })],
      }));
      turns.push({ content: [useTool('finish', { result: `Read ${ITERATIONS - 1} pages.` })] });
      const model = createScriptedModel(turns);
      const h = await createHarness(env, { tools: [fetchPage], models: { scripted: model } });

      const started = Date.now();
      const { result, handle, whole } = await h.worker.runUntil(async () => {
        const handle = await h.agents.start({
          task: 'Read every page',
          model: SCRIPTED_MODEL,
          maxIterations: ITERATIONS + 5,
          maxContextChars: CONTEXT_CHARS,
        });
        const result = await handle.result();
        // The result carries the latest steps; the earlier Temporal runs answer for the rest.
        return { result, handle, whole: await h.agents.chain(handle.workflowId, 'auditor') };
      });
      const wallMs = Date.now() - started;
      model.verify();

      expect(result).toMatchObject({
        success: true,
        terminationReason: 'success',
        iterations: ITERATIONS,
        toolCalls: ITERATIONS - 1,
        modelCalls: ITERATIONS,
      });
      expect(result.continuations).toBeGreaterThanOrEqual(1);
      // The whole chain, numbered without gaps from the first run's first step.
      expect(result.chain.earlier).toBeDefined();
      expect(result.chain.steps.length).toBeLessThan(whole.steps.length);
      const steps = whole.steps;
      expect(steps.map((s) => s.stepNumber)).toEqual(steps.map((_, i) => i + 1));
      expect(steps.filter((s) => s.type === 'tool_result' && s.model === undefined)).toHaveLength(ITERATIONS);
      expect(steps.find((s) => s.type === 'thinking')).toMatchObject({ thought: 'Reading page 1.' });
      expect(result.chain.chainId).toBe(handle.workflowId);

      // The model never saw more than the context limit, however long the run.
      const largest = Math.max(...model.calls.map((c) => JSON.stringify(c.messages).length));
      expect(largest).toBeLessThanOrEqual(CONTEXT_CHARS);

      // Every Temporal run of this agent run stays far below the limits.
      const description = await handle.describe();
      const runIds = [...(await previousRunIds(handle)), description.runId];
      const sizes = await Promise.all(runIds.map((id) => historySize(env.client, handle.workflowId, id)));
      const totalBytes = sizes.reduce((sum, s) => sum + s.bytes, 0);
      const maxBytes = Math.max(...sizes.map((s) => s.bytes));
      const maxEvents = Math.max(...sizes.map((s) => s.events));
      expect(maxBytes).toBeLessThan(LIMIT_BYTES / 10);
      expect(maxEvents).toBeLessThan(LIMIT_EVENTS / 10);
      console.log(
        `[long run] ${ITERATIONS} iterations, ${sizes.length} Temporal runs, ${(totalBytes / 1e6).toFixed(1)} MB history in total, ` +
          `${Math.round(totalBytes / ITERATIONS / 1024)} KB per iteration, largest run ${(maxBytes / 1e6).toFixed(2)} MB / ${maxEvents} events, ${(wallMs / 1000).toFixed(1)} s`,
      );
    },
  );
});

/** The run ids the agent run went through, oldest first, from the visibility store's execution chain. */
async function previousRunIds(handle: { workflowId: string }): Promise<string[]> {
  const ids: string[] = [];
  for await (const execution of env.client.workflow.list({ query: `WorkflowId = '${handle.workflowId}'` })) {
    if (execution.status.name === 'CONTINUED_AS_NEW') ids.push(execution.runId);
  }
  return ids;
}
