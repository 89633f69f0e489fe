import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import type { ModelProvider } from '../../../src/activities';
import { createScriptedModel, say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import type { AgentInputInit } from '../../../src/domain';
import { llmCalls } from '../../helpers/chain-helpers';
import { runScripted } from '../../helpers/run-scripted';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const base: AgentInputInit = {
  task: 'Look things up',
  model: { provider: 'scripted', model: 'primary', maxTokens: 100 },
};

describe('model turns', () => {
  it('switches to the next fallback model once a model fails for good, as a visible step', async () => {
    const brokenPrimary = (m: ModelProvider): ModelProvider => ({
      name: 'scripted',
      complete: async (request, signal, hooks) => {
        if (request.model === 'primary')
          throw ApplicationFailure.create({ type: 'ModelOverloaded', message: 'overloaded', nonRetryable: true });
        return m.complete(request, signal, hooks);
      },
    });
    const input: AgentInputInit = {
      ...base,
      model: { provider: 'scripted', model: 'primary', fallbacks: [{ provider: 'scripted', model: 'backup' }] },
    };
    const { result, model } = await runScripted(env, {
      script: [{ content: [say('Backup answering.')] }],
      input,
      wrap: brokenPrimary,
    });
    expect(result).toMatchObject({ success: true, finalAnswer: 'Backup answering.', modelCalls: 2 });
    expect(model.calls.map((c) => c.model)).toEqual(['backup']);
    const [first, second] = llmCalls(result.chain.steps);
    expect(first).toMatchObject({ toolName: 'primary' });
    expect(second).toMatchObject({
      toolName: 'backup',
      arguments: {
        note: expect.stringContaining('fallback from primary after: Model call failed: ModelOverloaded: overloaded'),
      },
    });
  });

  it('falls back when the worker refuses a model its registry does not allow', async () => {
    const model = createScriptedModel([{ content: [say('Allowed model answering.')] }]);
    const h = await createHarness(env, {
      tools: [],
      models: { scripted: model },
      isModelAllowed: (_p, m) => m === 'backup',
    });
    const input: AgentInputInit = {
      ...base,
      model: { provider: 'scripted', model: 'primary', fallbacks: [{ provider: 'scripted', model: 'backup' }] },
    };
    const result = await h.worker.runUntil(async () => (await h.agents.start(input)).result());
    model.verify();
    expect(result).toMatchObject({ success: true, finalAnswer: 'Allowed model answering.' });
    expect(model.calls.map((c) => c.model)).toEqual(['backup']);
    const refused = result.chain.steps.find((s) => s.type === 'tool_result' && !s.toolResult.success);
    expect(refused?.type === 'tool_result' && refused.toolResult.error).toContain(
      'ModelNotAllowed: Model scripted/primary is not allowed',
    );
  });

  it('never runs a tool call from a reply cut at max_tokens; retries with twice the room', async () => {
    const { result, model, log } = await runScripted(env, {
      script: [
        { content: [useTool('lookup', { key: 'trunc' })], stopReason: 'max_tokens' },
        { content: [useTool('lookup', { key: 'whole' })] },
        { content: [say('done')] },
      ],
      input: base,
    });
    expect(result).toMatchObject({ success: true, finalAnswer: 'done' });
    expect(log.calls.map((c) => c.args)).toEqual([{ key: 'whole' }]);
    expect(model.calls.map((c) => c.maxTokens)).toEqual([100, 200, 100]);
    expect(llmCalls(result.chain.steps)[1]?.arguments['note']).toBe(
      'previous reply was cut at max_tokens; retrying with 200',
    );
    // The cut reply never joined the conversation.
    expect(JSON.stringify(model.calls[2]!.messages)).not.toContain('trunc');
  });

  it('ends with reason error when a reply stays cut at 4x the room, running nothing', async () => {
    const cut: ScriptedTurn = { content: [useTool('lookup', { key: 'x' })], stopReason: 'max_tokens' };
    const { result, model, log } = await runScripted(env, { script: [cut, cut, cut], input: base });
    expect(model.calls.map((c) => c.maxTokens)).toEqual([100, 200, 400]);
    expect(result).toMatchObject({
      success: false,
      terminationReason: 'error',
      error: expect.stringContaining('tool calls were not run'),
    });
    expect(log.calls).toHaveLength(0);
  });

  it('ends a refused run with reason failure, without retrying', async () => {
    const { result } = await runScripted(env, {
      script: [{ content: [say('I cannot help with that.')], stopReason: 'refusal' }],
      input: base,
    });
    expect(result).toMatchObject({
      success: false,
      terminationReason: 'failure',
      modelCalls: 1,
      error: expect.stringContaining('refused'),
    });
  });

  it('continues a paused turn by sending the partial reply back', async () => {
    const { result, model } = await runScripted(env, {
      script: [{ content: [say('Searching the web…')], stopReason: 'pause_turn' }, { content: [say('Found it.')] }],
      input: base,
    });
    expect(result).toMatchObject({ success: true, finalAnswer: 'Found it.', iterations: 1, modelCalls: 2 });
    expect(model.calls[1]!.messages.at(-1)).toEqual({ role: 'assistant', content: [say('Searching the web…')] });
  });

  it('elides older tool results and retries once when the context window is exceeded', async () => {
    const { result, model } = await runScripted(env, {
      script: [
        { content: [useTool('lookup', { key: 'a' })] },
        { content: [useTool('lookup', { key: 'b' })] },
        { content: [useTool('lookup', { key: 'c' })] },
        { content: [], stopReason: 'model_context_window_exceeded' },
        { content: [say('ok')] },
      ],
      input: base,
    });
    expect(result).toMatchObject({ success: true, finalAnswer: 'ok' });
    const retry = model.calls[4]!;
    const results = retry.messages
      .flatMap((m) => (m.role === 'user' ? m.content : []))
      .flatMap((b) => (b.type === 'tool_result' ? [b.content] : []));
    expect(results).toEqual([
      '[elided to fit the context window]',
      expect.stringContaining('"key":"b"'),
      expect.stringContaining('"key":"c"'),
    ]);
    expect(llmCalls(result.chain.steps)[4]?.arguments['note']).toBe(
      'context window exceeded; elided 1 older tool results',
    );
  });
});
