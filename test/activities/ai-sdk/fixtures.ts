import { ApplicationFailure } from '@temporalio/common';
import { afterEach, beforeEach, expect } from 'vitest';
import { createAiSdkProvider, type AiSdkProviderOptions } from '../../../src/activities/models/ai-sdk/ai-sdk-provider';
import type { ModelReply, ModelRequest } from '../../../src/shared';
import type { ModelCallHooks, ModelProvider } from '../../../src/shared/model-provider';
import { startFakeMessagesServer, type FakeMessagesServer } from '../../../src/testing';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../../../src/testing/openai';

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

const baseRequest = (provider: string, model: string, overrides: Partial<ModelRequest>): ModelRequest => ({
  provider,
  model,
  system: 'You are a careful assistant.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] }],
  tools: [],
  toolChoice: 'auto',
  maxTokens: 1024,
  ...overrides,
});

export const openaiRequest = (overrides: Partial<ModelRequest> = {}) => baseRequest('openai', 'gpt-4o', overrides);
export const anthropicRequest = (overrides: Partial<ModelRequest> = {}) =>
  baseRequest('anthropic-ai-sdk', 'claude-sonnet-4-6', overrides);

export const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

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

/** The ApplicationFailure `promise` rejects with, failing the test if it resolves or throws anything else. */
export async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApplicationFailure);
  return error as ApplicationFailure;
}

/** Resolves once `predicate` holds, polling; fails the test after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs}ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
