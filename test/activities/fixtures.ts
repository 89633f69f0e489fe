import { afterEach, beforeEach } from 'vitest';
import { createAnthropicProvider } from '../../src/activities/models/anthropic-provider';
import type { ModelProvider } from '../../src/activities/models/model-provider';
import type { ModelReply, ModelRequest } from '../../src/shared';
import { startFakeMessagesServer, type FakeMessagesServer } from '../../src/testing';

export const API_KEY = 'sk-ant-test-key-0123456789';

export interface ProviderOnFakeServer {
  server: FakeMessagesServer;
  provider: ModelProvider;
  complete(request?: ModelRequest): Promise<ModelReply>;
}

/** A fresh fake Messages server for each test, and the Anthropic provider pointed at it. */
export function useProviderOnFakeServer(): ProviderOnFakeServer {
  const fake = {
    complete: (request: ModelRequest = modelRequest()) => fake.provider.complete(request, new AbortController().signal),
  } as ProviderOnFakeServer;
  beforeEach(async () => {
    fake.server = await startFakeMessagesServer();
    fake.provider = createAnthropicProvider({ apiKey: API_KEY, baseURL: fake.server.baseUrl });
  });
  afterEach(async () => {
    await fake.server.close();
  });
  return fake;
}

/** A minimal valid request; override what a test is about. */
export function modelRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    provider: 'anthropic',
    model: 'claude-sonnet-4-6',
    system: 'You are a careful assistant.',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] }],
    tools: [],
    toolChoice: 'auto',
    maxTokens: 1024,
    ...overrides,
  };
}

export const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** Resolves once `predicate` holds, polling; fails the test after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs}ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
