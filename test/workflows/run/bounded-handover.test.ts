import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, useTool } from '../../../src/activities/models/scripted-model';
import { defineTool } from '../../../src/tools/define-tool';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

/** Just under the start limit (MAX_TASK_BYTES, 256 KiB); carried three times it is ~750 KB. */
const TASK = `Summarise: ${'x'.repeat(250_000)}`;
/** How long the run may take to end; a livelocked run never ends (about one new Temporal run a second). */
const ENDS_WITHIN_MS = 30_000;

const noop = defineTool({ name: 'noop', description: 'Does nothing', input: z.object({}), execute: () => 'ok' });

async function temporalRuns(workflowId: string): Promise<number> {
  let runs = 0;
  for await (const _ of env.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runs += 1;
  return runs;
}

describe('a run whose carried state cannot fit ends instead of handing over forever', () => {
  it('ends with error, the sizes and the chain so far, in one Temporal run', { timeout: 90_000 }, async () => {
    const model = createScriptedModel([{ content: [useTool('noop', {})] }]);
    const h = await createHarness(env, { tools: [noop], models: { scripted: model } });
    const { result, workflowId } = await h.worker.runUntil(async () => {
      // The carried state (~750 KB) is over continueAsNewAtBytes at the first handover.
      const handle = await h.agents.start({
        task: TASK,
        model: SCRIPTED_MODEL,
        continueAsNewEvery: 1,
        continueAsNewAtBytes: 700_000,
      });
      const ended = await Promise.race([
        handle.result(),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`still running after ${ENDS_WITHIN_MS} ms`)), ENDS_WITHIN_MS),
        ),
      ]).catch(async (err: unknown) => {
        const runs = await temporalRuns(handle.workflowId);
        await handle.terminate('test: livelocked');
        throw new Error(`${String(err)}; ${runs} Temporal runs so far`);
      });
      return { result: ended, workflowId: handle.workflowId };
    });
    model.verify();

    expect(result).toMatchObject({
      success: false,
      terminationReason: 'error',
      iterations: 1,
      modelCalls: 1,
      toolCalls: 1,
      continuations: 0,
    });
    expect(result.error).toMatch(
      /^Continue-as-new refused: the state to carry is \d+ → \d+ → \d+ bytes .*at or over the limit of 700000 bytes/,
    );
    // The chain so far: the task, and the one tool call with its result.
    expect(result.chain.task).toBe(TASK);
    expect(result.chain.steps.filter((s) => s.type === 'tool_result' && s.model === undefined)).toEqual([
      expect.objectContaining({ toolResult: expect.objectContaining({ result: 'ok', success: true }) }),
    ]);
    expect(await temporalRuns(workflowId)).toBe(1);
  });

  it('refuses a task over the start limit as InvalidAgentInput, naming the limit', { timeout: 60_000 }, async () => {
    const h = await createHarness(env, { tools: [], models: {} });
    await h.worker.runUntil(async () => {
      const handle = await env.client.workflow.start('agentWorkflow', {
        taskQueue: h.taskQueue,
        workflowId: `too-big-${Date.now()}`,
        args: [{ task: 'x'.repeat(256 * 1024 + 1), model: SCRIPTED_MODEL }],
      });
      await expect(handle.result()).rejects.toMatchObject({
        cause: { type: 'InvalidAgentInput', message: expect.stringContaining('The task must be at most 262144 bytes') },
      });
    });
  });
});
