import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aiSdkEndpoint } from '../../../src/activities/models/endpoints/ai-sdk-packages';
import type { AiSdkPackage } from '../../../src/domain';
import type { ModelProvider } from '../../../src/domain/model/model-provider';
import { startFakeResponsesServer, type FakeResponsesServer } from '../../helpers/fake-responses-server';
import { modelRequest, weatherTool } from '../fixtures';
import { weatherExchange } from './weather-exchange';

const KEY = 'sk-responses-test-key-0123456789';

/**
 * The AI SDK packages whose models speak the Responses API when built by name (a registry entry's
 * `sdk`), against one fake Responses server over real HTTP: a tool call, then the reply that
 * reads its result. docs/providers.md lists these as tried, by this file.
 */
const RESPONSES_PACKAGES: ReadonlyArray<[AiSdkPackage, string]> = [
  ['openai', 'gpt-5'],
  ['xai', 'grok-4'],
];

describe.each(RESPONSES_PACKAGES)('@ai-sdk/%s built by name, against the fake Responses server', (sdk, model) => {
  let server: FakeResponsesServer;
  let provider: ModelProvider;
  beforeEach(async () => {
    server = await startFakeResponsesServer({ apiKey: KEY });
    provider = await aiSdkEndpoint(sdk, { baseURL: server.baseUrl, apiKey: KEY }, `${sdk}-entry`);
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
      modelRequest({ provider: `${sdk}-entry`, model, tools: [weatherTool], ...overrides }),
      new AbortController().signal,
    );

  it('a tool call, then the reply that reads its result', async () => {
    server.append([
      { kind: 'function_call', callId: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { kind: 'text', text: 'Paris: 12°C, light rain.', usage: { input_tokens: 40, output_tokens: 9 } },
    ]);
    expect(await weatherExchange(complete)).toBe('call_1');

    expect(server.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses']);
    expect(server.requests[0]!.body).toMatchObject({ model, stream: true });
    expect(JSON.stringify(server.requests[0]!.body.tools)).toContain('"name":"get_weather"');
    // The result went back as the call's function_call_output.
    expect(server.requests[1]!.body.input).toContainEqual(
      expect.objectContaining({ type: 'function_call_output', call_id: 'call_1', output: '12°C, light rain' }),
    );
  });
});
