import { afterEach, beforeEach } from 'vitest';
import { modelRequest } from '../fixtures';
import { createAiSdkProvider, type AiSdkProviderOptions } from '../../../src/activities/models/ai-sdk/ai-sdk-provider';
import type { ModelReply, ModelRequest } from '../../../src/domain';
import type { ModelCallHooks, ModelProvider } from '../../../src/domain/model/model-provider';
import { startFakeMessagesServer, type FakeMessagesServer } from '../../../src/testing';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../../../src/testing/openai';

// The same request, tool and helpers as the native providers' tests.
export { waitFor, weatherTool } from '../fixtures';
export { failureOf } from '../openai/fixtures';

export const OPENAI_KEY = 'sk-openai-test-key-0123456789';
export const ANTHROPIC_KEY = 'sk-ant-test-key-0123456789';

/** A fake server per test, and the adapter over a real AI SDK provider pointed at it. */
export interface AdapterOnFake<S> {
  server: S;
  provider: ModelProvider;
  complete(request?: Partial<ModelRequest>, hooks?: ModelCallHooks): Promise<ModelReply>;
}

/**
 * `@ai-sdk/openai`'s Chat Completions model `gpt-4o` against the fake OpenAI server. The AI SDK
 * packages are ESM and this build is CommonJS, so they are loaded with `import()`.
 */
export function useOpenAIChatAdapter(options: AiSdkProviderOptions = {}): AdapterOnFake<FakeOpenAIServer> {
  const fake = {
    complete: (overrides: Partial<ModelRequest> = {}, hooks?: ModelCallHooks) =>
      fake.provider.complete(openaiRequest(overrides), new AbortController().signal, hooks),
  } as AdapterOnFake<FakeOpenAIServer>;
  beforeEach(async () => {
    fake.server = await startFakeOpenAIServer({ apiKey: OPENAI_KEY });
    const { createOpenAI } = await import('@ai-sdk/openai');
    const openai = createOpenAI({ baseURL: fake.server.baseUrl, apiKey: OPENAI_KEY });
    fake.provider = createAiSdkProvider(openai.chat('gpt-4o'), options);
  });
  afterEach(async () => {
    try {
      fake.server.verify();
    } finally {
      await fake.server.close();
    }
  });
  return fake;
}

/** `@ai-sdk/anthropic`'s provider object (any model id) against the fake Messages server. */
export function useAnthropicAdapter(options: AiSdkProviderOptions = {}): AdapterOnFake<FakeMessagesServer> {
  const fake = {
    complete: (overrides: Partial<ModelRequest> = {}, hooks?: ModelCallHooks) =>
      fake.provider.complete(anthropicRequest(overrides), new AbortController().signal, hooks),
  } as AdapterOnFake<FakeMessagesServer>;
  beforeEach(async () => {
    fake.server = await startFakeMessagesServer();
    const { createAnthropic } = await import('@ai-sdk/anthropic');
    fake.provider = createAiSdkProvider(
      createAnthropic({ baseURL: `${fake.server.baseUrl}/v1`, apiKey: ANTHROPIC_KEY }),
      {
        name: 'anthropic-ai-sdk',
        ...options,
      },
    );
  });
  afterEach(async () => {
    try {
      fake.server.verify();
    } finally {
      await fake.server.close();
    }
  });
  return fake;
}

export const openaiRequest = (overrides: Partial<ModelRequest> = {}) =>
  modelRequest({ provider: 'openai', model: 'gpt-4o', ...overrides });
export const anthropicRequest = (overrides: Partial<ModelRequest> = {}) =>
  modelRequest({ provider: 'anthropic-ai-sdk', ...overrides });

/** Hooks that log what they saw, in order: `beat`, `text:<delta>`, `thinking:<delta>`. */
export function recordingHooks(): { hooks: ModelCallHooks; log: string[]; heartbeats(): number; text(): string[] } {
  const log: string[] = [];
  return {
    log,
    heartbeats: () => log.filter((entry) => entry === 'beat').length,
    text: () => log.filter((entry) => entry.startsWith('text:')).map((entry) => entry.slice(5)),
    hooks: {
      heartbeat: () => log.push('beat'),
      onTextDelta: (text) => log.push(`text:${text}`),
      onThinkingDelta: (text) => log.push(`thinking:${text}`),
    },
  };
}
