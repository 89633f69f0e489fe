import { ApplicationFailure } from '@temporalio/common';
import { afterEach, beforeEach, expect } from 'vitest';
import type { ModelCallHooks, ModelProvider } from '../../../src/domain/model/model-provider';
import {
  createOpenAICompatibleProvider,
  type OpenAICompatibleProviderOptions,
} from '../../../src/activities/models/openai/openai-compatible-provider';
import type { ModelReply, ModelRequest } from '../../../src/domain';
import {
  startFakeOpenAIServer,
  type FakeOpenAIServer,
  type FakeOpenAIServerOptions,
} from '../../../src/testing/openai';

export const API_KEY = 'sk-local-test-key-0123456789';

export interface ProviderOnFakeOpenAIServer {
  server: FakeOpenAIServer;
  provider: ModelProvider;
  complete(request?: ModelRequest, hooks?: ModelCallHooks): Promise<ModelReply>;
}

/**
 * A fresh fake OpenAI-compatible server for each test (with `server` options), and the provider
 * pointed at it. Each test ends with `verify()`: no harness problem, no unused script entry.
 */
export function useOpenAIProviderOnFakeServer(
  options: Omit<OpenAICompatibleProviderOptions, 'baseURL'> & { server?: FakeOpenAIServerOptions } = {},
): ProviderOnFakeOpenAIServer {
  const { server: serverOptions, ...providerOptions } = options;
  const fake = {
    complete: (request: ModelRequest = modelRequest(), hooks?: ModelCallHooks) =>
      fake.provider.complete(request, new AbortController().signal, hooks),
  } as ProviderOnFakeOpenAIServer;
  beforeEach(async () => {
    fake.server = await startFakeOpenAIServer(serverOptions);
    fake.provider = createOpenAICompatibleProvider({ baseURL: fake.server.baseUrl, ...providerOptions });
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

/** A minimal valid request; override what a test is about. */
export function modelRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    provider: 'openai-compatible',
    model: 'llama3.2',
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

/** The ApplicationFailure a promise rejects with; fails the test if it resolves or rejects otherwise. */
export async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
  const error = await promise.then(
    () => undefined,
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
