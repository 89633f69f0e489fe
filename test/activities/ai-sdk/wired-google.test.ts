import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aiSdkEndpoint } from '../../../src/activities/models/endpoints/ai-sdk-packages';
import type { ModelMessage } from '../../../src/domain';
import type { ModelProvider } from '../../../src/domain/model/model-provider';
import {
  startFakeGenerateContentServer,
  type FakeGenerateContentServer,
} from '../../helpers/fake-generate-content-server';
import { modelRequest, weatherTool } from '../fixtures';

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
    const first = await complete();
    expect(first.stopReason).toBe('tool_use');
    expect(first.content).toEqual([
      { type: 'tool_use', id: expect.any(String), name: 'get_weather', input: { city: 'Paris' } },
    ]);
    const callId = (first.content[0] as { id: string }).id;
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] },
      { role: 'assistant', content: first.content },
      {
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: callId, content: '12°C, light rain', isError: false }],
      },
    ];
    const second = await complete({ messages });
    expect(second).toMatchObject({
      stopReason: 'end_turn',
      content: [{ type: 'text', text: 'Paris: 12°C, light rain.' }],
      usage: { inputTokens: 40, outputTokens: 9 },
    });

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
