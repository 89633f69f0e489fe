import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aiSdkEndpoint } from '../../../src/activities/models/endpoints/ai-sdk-packages';
import type { ModelProvider } from '../../../src/domain/model/model-provider';
import {
  startFakeGenerateContentServer,
  type FakeGenerateContentServer,
} from '../../helpers/fake-generate-content-server';
import { modelRequest, weatherTool } from '../fixtures';
import { weatherExchange } from './weather-exchange';

const KEY = 'google-test-key-0123456789';

// @ai-sdk/google built by name, as a registry entry builds it, against a fake generateContent
// server over real HTTP: a tool call, then the reply that reads its result (docs/providers.md).
describe('@ai-sdk/google built by name, against the fake generateContent server', () => {
  let server: FakeGenerateContentServer;
  let provider: ModelProvider;
  beforeEach(async () => {
    server = await startFakeGenerateContentServer({ apiKey: KEY });
    provider = await aiSdkEndpoint('google', { baseURL: server.baseUrl, apiKey: KEY }, 'gemini');
  });
  afterEach(async () => {
    try {
      server.verify();
    } finally {
      await server.close();
    }
  });

  const complete = (overrides: Parameters<typeof modelRequest>[0] = {}) =>
    provider.complete(
      modelRequest({ provider: 'gemini', model: 'gemini-2.5-flash', tools: [weatherTool], ...overrides }),
      new AbortController().signal,
    );

  it('a tool call, then the reply that reads its result', async () => {
    server.append([
      { parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
      {
        parts: [{ text: 'Paris: 12°C, ' }, { text: 'light rain.' }],
        usage: { promptTokenCount: 40, candidatesTokenCount: 9 },
      },
    ]);
    const callId = await weatherExchange(complete);

    expect(server.requests.map((r) => [r.path, r.streamed])).toEqual([
      ['/v1beta/models/gemini-2.5-flash:streamGenerateContent', true],
      ['/v1beta/models/gemini-2.5-flash:streamGenerateContent', true],
    ]);
    expect(JSON.stringify(server.requests[0]!.body.tools)).toContain('"name":"get_weather"');
    // The result went back as a functionResponse part naming the tool and the call.
    expect((server.requests[1]!.body.contents as unknown[]).at(-1)).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: callId,
            name: 'get_weather',
            response: { name: 'get_weather', content: '12°C, light rain' },
          },
        },
      ],
    });
  });
});
