import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { createLlamaCppProvider, type LlamaCppProvider } from '../../../src/activities/models/local/llama-cpp-provider';
import { ensureSmolLM2Weights } from '../../../src/activities/models/local/model-weights';
import { AgentClient } from '../../../src/client/agent-client';
import { defineTool } from '../../../src/tools/define-tool';
import { createAgentWorker } from '../../../src/worker';
import { TEST_MODELS_DIR } from '../../conformance/local-model-harness';
import { callStepOfTool, toolResultOfTool } from '../../helpers/chain-helpers';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const AddInput = z.object({ a: z.number(), b: z.number() }).strict();
const add = defineTool({
  name: 'add',
  description: 'Adds two numbers a and b.',
  input: AddInput,
  execute: async ({ a, b }) => ({ sum: a + b }),
});

/**
 * One agent run on the suite's dev server, its model SmolLM2-135M in this process: the tool grammar
 * makes even this model call `add` with arguments its zod schema accepts. Greedy decoding
 * (node-llama-cpp's default temperature 0) keeps the run the same every time.
 */
describe('an agent run on the embedded local model', () => {
  let provider: LlamaCppProvider;
  beforeAll(async () => {
    // One thread: see local-model-harness.ts (two spinning threads on a busy 2-core machine collapse).
    provider = createLlamaCppProvider({ modelPath: await ensureSmolLM2Weights({ dir: TEST_MODELS_DIR }), threads: 1 });
  }, 300_000);
  afterAll(async () => provider?.dispose());

  it('calls the add tool with schema-valid arguments, seen in the chain', async () => {
    const taskQueue = `test-${randomUUID()}`;
    const worker = await createAgentWorker({
      connection: env.nativeConnection,
      namespace: inject('temporalNamespace'),
      taskQueue,
      tools: [add],
      models: { local: provider },
      secrets: [],
      workflowBundle: { codePath: inject('workflowBundlePath') },
      workerOptions: { maxCachedWorkflows: 0 },
    });
    const agents = new AgentClient({ client: env.client, taskQueue });
    const startedAt = Date.now();
    const result = await worker.runUntil(async () =>
      (
        await agents.start({
          task: 'What is 2 + 3? Use the add tool.',
          model: { provider: 'local', model: 'smollm2-135m-instruct', maxTokens: 200 },
          maxIterations: 3,
        })
      ).result(),
    );
    console.error(`local model run: ${Date.now() - startedAt} ms, ${result.terminationReason}, ${result.finalAnswer}`);
    const call = callStepOfTool(result.chain.steps, 'add');
    expect(call).toBeDefined();
    expect(AddInput.safeParse(call?.toolCall.arguments).success).toBe(true);
    expect(toolResultOfTool(result.chain.steps, 'add')).toMatchObject({ success: true });
  }, 180_000);
});
