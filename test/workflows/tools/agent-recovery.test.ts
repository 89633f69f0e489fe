import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../../src/activities/models/scripted-model';
import type { ModelProvider } from '../../../src/activities';
import { REPLAY_SCENARIOS } from '../../replay/scenarios';
import { toolResults } from '../../helpers/chain-helpers';
import { scheduledActivities } from '../../helpers/history';
import { runScripted } from '../../helpers/run-scripted';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';

const env = useTestEnv();

const scenario = (name: string) => REPLAY_SCENARIOS.find((s) => s.name === name)!;

/** Plays a replay scenario live: its script and input, with the test tools. */
function runScenario(name: string) {
  const { turns, input } = scenario(name);
  return runScripted(env, { script: turns, input });
}

describe('a run recovers from bad tool calls', () => {
  it('turns unknown tools, bad arguments, a throwing tool and a malformed finish into observations, then finishes', async () => {
    const { result, model, log } = await runScenario('bad-calls-recover');
    expect(result).toMatchObject({
      success: true,
      terminationReason: 'success',
      finalAnswer: 'recovered',
      iterations: 6,
    });

    const [unknown, invalid, thrown, badFinish, secret, finish, skipped] = toolResults(result.chain.steps);
    expect(unknown).toMatchObject({
      success: false,
      error: expect.stringMatching(/unknown tool "nonexistent_api".*lookup, always_fails, big_result, finish/),
    });
    expect(invalid).toMatchObject({
      success: false,
      error: expect.stringContaining('invalid arguments for tool "lookup"'),
    });
    expect(thrown).toMatchObject({ success: false, error: expect.stringContaining('database unreachable') });
    expect(badFinish).toMatchObject({
      success: false,
      error: expect.stringContaining('"finish" needs a non-empty string "result"'),
    });
    // Secrets are redacted before they reach the chain or the history.
    expect(secret).toMatchObject({ success: true, result: 'the key is [REDACTED]' });
    // A tool called beside finish is not run, and the chain says so.
    expect(finish).toMatchObject({ correlationId: 'toolu_7', success: true, result: 'recovered' });
    expect(skipped).toMatchObject({
      correlationId: 'toolu_6',
      success: false,
      error: expect.stringContaining('Not run'),
    });
    expect(log.calls.filter((c) => c.tool === 'lookup')).toHaveLength(0);
    expect(JSON.stringify(result)).not.toContain('SECRETSECRET');

    // The model saw each problem as an error tool_result for its own tool_use id.
    const observationsSent = model.calls.slice(1, 5).map((c) => c.messages[c.messages.length - 1]!.content[0]);
    expect(observationsSent.map((b) => (b?.type === 'tool_result' ? [b.toolUseId, b.isError] : b))).toEqual([
      ['toolu_1', true],
      ['toolu_2', true],
      ['toolu_3', true],
      ['toolu_4', true],
    ]);

    // Invalid calls never reached an activity; the throwing tool was retried by its own policy (2 attempts).
    const runTools = (await scheduledActivities(env.client, result.chain.chainId)).filter((a) => a.type === 'runTool');
    expect(runTools.map((a) => a.summary?.split(' ')[0])).toEqual(['always_fails', 'big_result']);
    expect(log.calls.filter((c) => c.tool === 'always_fails')).toHaveLength(2);
  });

  it('cuts an oversized result to the configured size with a visible marker', async () => {
    const { tools } = testTools();
    const model = createScriptedModel([
      { content: [{ type: 'tool_use', id: 'toolu_big', name: 'big_result', input: {} }] },
      { content: [{ type: 'text', text: 'ok' }] },
    ]);
    const h = await createHarness(env, { tools, models: { scripted: model } });
    const result = await h.worker.runUntil(async () =>
      (
        await h.agents.start({ task: 'big', model: { provider: 'scripted', model: 'm' }, maxToolResultChars: 100 })
      ).result(),
    );
    const [big] = toolResults(result.chain.steps);
    expect(big).toMatchObject({
      success: true,
      truncated: true,
      result: expect.stringMatching(/^y{100}\n…\[truncated: showing 100 of 5000 characters\]$/),
    });
  });
});

describe('stopping', () => {
  it('at max_iterations makes one last call without tools and returns its summary', async () => {
    const { result, model } = await runScenario('max-iterations-summary');
    expect(result).toMatchObject({
      success: false,
      terminationReason: 'max_iterations',
      iterations: 2,
      modelCalls: 3,
      toolCalls: 2,
    });
    expect(result.finalAnswer).toContain('Progress: a=10, bb=20');
    const last = model.calls[2]!;
    expect(last.toolChoice).toBe('none');
    const lastUser = last.messages[last.messages.length - 1]!;
    expect(lastUser.content.map((b) => b.type)).toEqual(['tool_result', 'text']);
    const synthesis = result.chain.steps[result.chain.steps.length - 1]!;
    expect(synthesis.type === 'synthesis' && synthesis.synthesis.sources).toHaveLength(2);
  });

  it('ends with reason error, and the chain so far, when the model fails for good', async () => {
    const failing: ModelProvider = {
      name: 'scripted',
      complete: async () => {
        throw ApplicationFailure.create({
          type: 'ModelAuthentication',
          message: 'invalid x-api-key',
          nonRetryable: true,
        });
      },
    };
    const h = await createHarness(env, { tools: [], models: { scripted: failing } });
    const result = await h.worker.runUntil(async () =>
      (await h.agents.start({ task: 't', model: { provider: 'scripted', model: 'm' } })).result(),
    );
    expect(result).toMatchObject({
      success: false,
      terminationReason: 'error',
      error: expect.stringContaining('ModelAuthentication: invalid x-api-key'),
    });
    expect(result.chain.status).toBe('failed');
    expect(result.chain.steps.map((s) => s.type)).toEqual(['tool_call', 'tool_result']);
  });

  it("refuses a registered tool that has the finish tool's name, and says which", async () => {
    const { tools } = testTools();
    const model = createScriptedModel([]);
    const h = await createHarness(env, { tools, models: { scripted: model } });
    const result = await h.worker.runUntil(async () =>
      (
        await h.agents.start({ task: 't', model: { provider: 'scripted', model: 'm' }, finishToolName: 'lookup' })
      ).result(),
    );
    // The run's first call describes the registered tools and refuses the clash before any model is asked.
    expect(result).toMatchObject({ success: false, terminationReason: 'error' });
    expect(result.error).toContain('A registered tool is named "lookup"');
    expect(model.calls).toHaveLength(0);
  });

  it('rejects an invalid AgentInput with a typed, non-retryable failure', async () => {
    const h = await createHarness(env, { tools: [], models: {} });
    await h.worker.runUntil(async () => {
      const handle = await env.client.workflow.start('agentWorkflow', {
        taskQueue: h.taskQueue,
        workflowId: `bad-${Date.now()}`,
        args: [{ task: '' }],
      });
      await expect(handle.result()).rejects.toMatchObject({ cause: { type: 'InvalidAgentInput' } });
    });
  });
});
