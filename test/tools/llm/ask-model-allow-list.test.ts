import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import { isModelAllowed, ModelRegistry } from '../../../src/domain';
import { createLlmTool } from '../../../src/tools/builtin/llm';
import { resultStepOfTool } from '../../helpers/chain-helpers';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

/** The tool's own registry offers `big`; the organisation's (the worker's) allows only `fast`. */
const toolRegistry = ModelRegistry.parse({
  models: {
    fast: { provider: 'openai-compatible', model: 'fast-1' },
    big: { provider: 'openai-compatible', model: 'big-1' },
  },
});
const workerRegistry = ModelRegistry.parse({
  models: {
    fast: { provider: 'openai-compatible', model: 'fast-1' },
    agent: { provider: 'scripted', model: SCRIPTED_MODEL.model },
  },
});
const workerAllows = (provider: string, model: string) => isModelAllowed(workerRegistry, provider, model);

describe("ask_model obeys the worker's model allow-list, not only its own", () => {
  it('a worker whose registry leaves out a model the tool offers refuses to start, naming the tool and the model', async () => {
    const tool = createLlmTool({ registry: toolRegistry, providers: { 'openai-compatible': createScriptedModel([]) } });
    expect(tool.models).toEqual([
      { provider: 'openai-compatible', model: 'fast-1', alias: 'fast' },
      { provider: 'openai-compatible', model: 'big-1', alias: 'big' },
    ]);
    await expect(
      createHarness(env, {
        tools: [tool],
        models: { scripted: createScriptedModel([]) },
        isModelAllowed: workerAllows,
      }),
    ).rejects.toThrow(/does not allow every model its tools call: "ask_model" calls openai-compatible\/big-1\./);
  });

  it("a call to a model outside the worker's list is refused in the run, and the model is never reached", async () => {
    const big = createScriptedModel([]);
    // A tool that does not declare its models (written by hand, or an older build) gets past the start check; the call does not.
    const undeclared = {
      ...createLlmTool({ registry: toolRegistry, providers: { 'openai-compatible': big } }),
      models: undefined,
    };
    const agent = createScriptedModel([
      { content: [useTool('ask_model', { model: 'big', prompt: 'Summarise the audit log.' }, 'toolu_big')] },
      { content: [say('Could not ask.')] },
    ]);
    const h = await createHarness(env, {
      tools: [undeclared],
      models: { scripted: agent },
      isModelAllowed: workerAllows,
    });
    const result = await h.worker.runUntil(async () =>
      (await h.agents.start({ task: 'ask', model: SCRIPTED_MODEL })).result(),
    );
    agent.verify();
    expect(big.calls).toHaveLength(0);
    const step = resultStepOfTool(result.chain.steps, 'ask_model');
    expect(step?.toolResult).toMatchObject({ success: false });
    expect(step?.toolResult.error).toMatch(
      /"big" \(openai-compatible\/big-1\) is not allowed by this worker's model registry/,
    );
  }, 120_000);
});
