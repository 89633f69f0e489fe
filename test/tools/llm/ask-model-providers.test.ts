import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../../src/activities/models/anthropic/anthropic-provider';
import { createOpenAICompatibleProvider } from '../../../src/activities/models/openai/openai-compatible-provider';
import { LlmAnswer, LlmConsensus, ModelRegistry } from '../../../src/domain';
import { startFakeMessagesServer, type FakeMessagesServer } from '../../../src/testing';
import {
  hang,
  httpError,
  startFakeOpenAIServer,
  text,
  type ChatScriptEntry,
  type FakeChatRequestBody,
  type FakeOpenAIServer,
} from '../../../src/testing/openai';
import type { ToolContext } from '../../../src/tools/define-tool';
import { createLlmTool } from '../../../src/tools/builtin/llm';
import { ToolError } from '../../../src/tools/tool-error';

/** Three models on one OpenAI-compatible server, one on the Anthropic Messages API. */
const registry = ModelRegistry.parse({
  models: {
    a: { provider: 'openai-compatible', model: 'model-a' },
    b: { provider: 'openai-compatible', model: 'model-b', price: { input: 1, output: 5, cacheRead: 0, cacheWrite: 0 } },
    c: { provider: 'openai-compatible', model: 'model-c' },
    claude: { provider: 'anthropic', model: 'claude-haiku-4-5' },
  },
});

let openai: FakeOpenAIServer;
let messages: FakeMessagesServer;
beforeEach(async () => {
  [openai, messages] = await Promise.all([startFakeOpenAIServer(), startFakeMessagesServer()]);
});
afterEach(async () => {
  try {
    openai.verify();
    messages.verify();
  } finally {
    await Promise.all([openai.close(), messages.close()]);
  }
});

function askModel() {
  return createLlmTool({
    registry,
    providers: {
      'openai-compatible': createOpenAICompatibleProvider({ baseURL: openai.baseUrl }),
      anthropic: createAnthropicProvider({ baseURL: messages.baseUrl, apiKey: 'sk-ant-test' }),
    },
  });
}

function context(signal = new AbortController().signal): ToolContext & { beats: number } {
  const ctx = {
    idempotencyKey: 'wf:1',
    signal,
    beats: 0,
    heartbeat: () => void (ctx.beats += 1),
    narrowVisibility: () => undefined,
    progress: () => undefined,
  };
  return ctx;
}

/**
 * One script entry per expected request; each answers by the model the request names, and none
 * answers before all `n` have arrived: the test hangs (and fails) unless the calls run at once.
 */
function together(n: number, answer: (model: string) => ReturnType<typeof text> | ReturnType<typeof httpError>) {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  const entry: ChatScriptEntry = async (body: FakeChatRequestBody) => {
    if (++arrived === n) release();
    await all;
    return answer(body.model);
  };
  return Array.from({ length: n }, () => entry);
}

/** What a call threw, or undefined when it returned. */
const failureOf = (call: unknown): Promise<unknown> =>
  Promise.resolve(call).then(
    () => undefined,
    (err: unknown) => err,
  );

const usage = (prompt_tokens: number, completion_tokens: number) => ({ usage: { prompt_tokens, completion_tokens } });

describe('ask_model consensus with real providers on the fake servers', () => {
  it('asks every model at once with the same prompt, and reports each answer, its cost, and the agreement', async () => {
    openai.append(
      together(3, (model) =>
        model === 'model-a'
          ? text('Paris.', usage(20, 2))
          : model === 'model-b'
            ? text('paris', usage(1_000, 200))
            : text('Lyon', usage(20, 3)),
      ),
    );
    const tool = askModel();
    const ctx = context();
    const result = LlmConsensus.parse(
      await tool.execute(
        tool.input.parse({
          models: ['a', 'b', 'c'],
          mode: 'consensus',
          prompt: 'Capital of France?',
          temperature: 0.3,
        }),
        ctx,
      ),
    );
    expect(result).toMatchObject({
      mode: 'consensus',
      agreement: 2 / 3,
      unanimous: false,
      majority: 'Paris.',
      groups: [['a', 'b'], ['c']],
      answers: [
        { alias: 'a', model: 'model-a', answer: 'Paris.', usage: { inputTokens: 20, outputTokens: 2 } },
        { alias: 'b', model: 'model-b', answer: 'paris', usage: { inputTokens: 1_000, outputTokens: 200 } },
        { alias: 'c', model: 'model-c', answer: 'Lyon', usage: { inputTokens: 20, outputTokens: 3 } },
      ],
    });
    // b's registry price: 1,000 in at $1/M and 200 out at $5/M.
    expect((result.answers[1] as LlmAnswer).costUsd).toBeCloseTo(0.002, 9);
    // Each request: the same prompt alone, the call's sampling setting and nothing else of it.
    expect(openai.requests.map((r) => r.body?.model).sort()).toEqual(['model-a', 'model-b', 'model-c']);
    for (const r of openai.requests) {
      expect(r.body?.messages.at(-1)).toEqual({ role: 'user', content: 'Capital of France?' });
      expect(r.body).toMatchObject({ temperature: 0.3 });
      expect(r.body).not.toHaveProperty('top_p');
      expect(r.body).not.toHaveProperty('seed');
    }
  });

  it('sends no sampling settings when the call sets none', async () => {
    openai.append([text('4')]);
    const tool = askModel();
    const answer = LlmAnswer.parse(await tool.execute(tool.input.parse({ model: 'a', prompt: '2+2?' }), context()));
    expect(answer).toMatchObject({ alias: 'a', answer: '4' });
    expect(openai.requests[0]?.body).not.toHaveProperty('temperature');
    openai.append([text('5')]);
    await tool.execute(tool.input.parse({ model: 'a', prompt: '2+3?', seed: 42, topP: 0.5 }), context());
    expect(openai.requests[1]?.body).toMatchObject({ seed: 42, top_p: 0.5 });
  });

  it('lists a failed model with its error while the others answer; all failing is a tool error', async () => {
    openai.append(together(2, (model) => (model === 'model-a' ? text('4') : httpError(404))));
    const tool = askModel();
    const input = tool.input.parse({ models: ['a', 'b'], mode: 'consensus', prompt: '2+2?' });
    const result = LlmConsensus.parse(await tool.execute(input, context()));
    expect(result).toMatchObject({ agreement: 0.5, unanimous: false, groups: [['a']] });
    expect(result.majority).toBeUndefined();
    expect(result.answers[1]).toEqual({ alias: 'b', model: 'model-b', error: expect.stringMatching(/404|exist/) });

    openai.append(together(2, () => httpError(404)));
    const failed = await failureOf(tool.execute(input, context()));
    expect(ToolError.is(failed)).toBe(true);
    expect((failed as ToolError).message).toMatch(/^Every model failed\. a: .*; b: /);
    // A missing model stays missing: not worth another attempt.
    expect((failed as ToolError).retryable).toBe(false);
  });

  it('stops every call when the activity is cancelled', async () => {
    openai.append([hang(), hang()]);
    const tool = askModel();
    const abort = new AbortController();
    const pending = tool.execute(
      tool.input.parse({ models: ['a', 'c'], mode: 'consensus', prompt: 'slow?' }),
      context(abort.signal),
    );
    await expect.poll(() => openai.requests.length).toBe(2);
    abort.abort(new Error('activity cancelled'));
    await expect(pending).rejects.toThrow('activity cancelled');
  });
});

describe('a sampling setting the provider refuses (anthropic takes temperature 0 to 1 only)', () => {
  it('is a non-retryable tool error naming the model and the setting, and nothing is sent', async () => {
    const tool = askModel();
    const failed = await failureOf(
      tool.execute(tool.input.parse({ model: 'claude', prompt: 'q', temperature: 1.5 }), context()),
    );
    expect(ToolError.is(failed)).toBe(true);
    expect((failed as ToolError).retryable).toBe(false);
    expect((failed as ToolError).message).toMatch(
      /^Model "claude" does not take temperature: ask again without temperature, or pick another model\. \(anthropic\/claude-haiku-4-5 does not take temperature/,
    );
    expect(messages.requests).toHaveLength(0);
  });

  it("in a consensus, is that model's listed failure while the others answer", async () => {
    openai.append([text('yes')]);
    const tool = askModel();
    const result = LlmConsensus.parse(
      await tool.execute(
        tool.input.parse({ models: ['claude', 'a'], mode: 'consensus', prompt: 'q', seed: 1 }),
        context(),
      ),
    );
    expect(result.answers[0]).toMatchObject({ alias: 'claude', error: expect.stringContaining('does not take seed') });
    expect(result.answers[1]).toMatchObject({ alias: 'a', answer: 'yes' });
    expect(openai.requests[0]?.body).toMatchObject({ seed: 1 });
    expect(messages.requests).toHaveLength(0);
  });
});
