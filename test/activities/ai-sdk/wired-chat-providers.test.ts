import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aiSdkEndpoint } from '../../../src/activities/models/endpoints/ai-sdk-packages';
import type { AiSdkPackage, ModelReply } from '../../../src/domain';
import type { ModelProvider } from '../../../src/domain/model/model-provider';
import {
  startFakeOpenAIServer,
  text,
  toolUse,
  type FakeOpenAIServer,
  type StreamUsageDialect,
} from '../../../src/testing/openai';
import { modelRequest, weatherTool } from '../fixtures';
import { weatherExchange } from './weather-exchange';

const KEY = 'sk-wired-test-key-0123456789';

/**
 * The AI SDK packages whose language models speak Chat Completions, each built by name as a
 * registry entry builds it (`aiSdkEndpoint`), against the one fake Chat Completions server over
 * real HTTP: a tool call, then the reply that reads its result. docs/providers.md lists these as
 * tried, by this file.
 */
const CHAT_PACKAGES: ReadonlyArray<[AiSdkPackage, string, StreamUsageDialect]> = [
  ['openai-compatible', 'local-model', 'openai'],
  ['groq', 'llama-3.3-70b-versatile', 'x_groq'],
  ['mistral', 'mistral-large-latest', 'finish-chunk'],
  ['deepseek', 'deepseek-chat', 'openai'],
];

describe.each(CHAT_PACKAGES)(
  '@ai-sdk/%s built by name, against the fake Chat Completions server',
  (sdk, model, usageDialect) => {
    let server: FakeOpenAIServer;
    let provider: ModelProvider;
    beforeEach(async () => {
      server = await startFakeOpenAIServer({ apiKey: KEY, usageDialect });
      provider = await aiSdkEndpoint(sdk, { baseURL: server.baseUrl, apiKey: KEY }, `${sdk}-entry`);
    });
    afterEach(async () => {
      try {
        server.verify();
      } finally {
        await server.close();
      }
    });

    const complete = (overrides: Parameters<typeof modelRequest>[0] = {}): Promise<ModelReply> =>
      provider.complete(
        modelRequest({ provider: `${sdk}-entry`, model, tools: [weatherTool], ...overrides }),
        new AbortController().signal,
      );

    it('a tool call, then the reply that reads its result', async () => {
      // One chunk per tool call: Mistral's stream sends each call whole, never its arguments in pieces.
      server.append([
        toolUse('get_weather', { city: 'Paris' }, { id: 'call_1', chunkSize: 1000 }),
        text('Paris: 12°C, light rain.', { usage: { prompt_tokens: 40, completion_tokens: 9 } }),
      ]);
      expect(await weatherExchange(complete)).toBe('call_1');

      expect(server.requests.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
      expect(server.requests[0]!.body).toMatchObject({ model, stream: true });
      expect(server.requests[0]!.body?.tools).toEqual([
        expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'get_weather' }) }),
      ]);
      // The tool's result went back as the conversation's tool message, under the call's id.
      expect(server.requests[1]!.body?.messages).toContainEqual(
        expect.objectContaining({ role: 'tool', tool_call_id: 'call_1', content: '12°C, light rain' }),
      );
    });
  },
);
