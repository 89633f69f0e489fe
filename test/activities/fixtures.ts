import { afterEach, beforeEach } from 'vitest';
import { createAnthropicProvider } from '../../src/activities/models/anthropic/anthropic-provider';
import type { ModelCallHooks, ModelProvider } from '../../src/domain/model/model-provider';
import type { ModelReply, ModelRequest } from '../../src/domain';
import { startFakeMessagesServer, type FakeMessagesServer, type ScriptEntry } from '../../src/testing';

export const API_KEY = 'sk-ant-test-key-0123456789';

export interface ProviderOnFakeServer {
  server: FakeMessagesServer;
  provider: ModelProvider;
  complete(request?: ModelRequest, hooks?: ModelCallHooks): Promise<ModelReply>;
}

/** A fresh fake Messages server for each test, and the Anthropic provider (streaming unless told) pointed at it. */
export function useProviderOnFakeServer(options: { stream?: boolean } = {}): ProviderOnFakeServer {
  const fake = {
    complete: (request: ModelRequest = modelRequest(), hooks?: ModelCallHooks) =>
      fake.provider.complete(request, new AbortController().signal, hooks),
  } as ProviderOnFakeServer;
  beforeEach(async () => {
    fake.server = await startFakeMessagesServer();
    fake.provider = createAnthropicProvider({
      apiKey: API_KEY,
      baseURL: fake.server.baseUrl,
      stream: options.stream ?? true,
    });
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

/** Hooks that log what they saw, in order: `beat`, `text:<delta>`, `thinking:<delta>`. */
export function recordingHooks(): { hooks: ModelCallHooks; log: string[]; heartbeats(): number } {
  const log: string[] = [];
  return {
    log,
    heartbeats: () => log.filter((entry) => entry === 'beat').length,
    hooks: {
      heartbeat: () => log.push('beat'),
      onTextDelta: (text) => log.push(`text:${text}`),
      onThinkingDelta: (text) => log.push(`thinking:${text}`),
    },
  };
}

/** The rejection of `promise`, failing the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

/** `start(script)` gives a fresh fake Messages server, closed after each test. */
export function useFakeServerPerTest(): (script?: ScriptEntry[]) => Promise<FakeMessagesServer> {
  let server: FakeMessagesServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (script = []) => {
    server = await startFakeMessagesServer({ script });
    return server;
  };
}
