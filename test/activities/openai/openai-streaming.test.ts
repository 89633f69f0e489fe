import { describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider } from '../../../src/activities/models/openai/openai-compatible-provider';
import type { ModelCallHooks } from '../../../src/domain/model/model-provider';
import { httpError, message, text, toolUse, type ChatScriptEntry } from '../../../src/testing/openai';
import { modelRequest, useOpenAIProviderOnFakeServer, weatherTool } from './fixtures';

function recordingHooks() {
  const seen = { heartbeats: 0, text: [] as string[], thinking: [] as string[] };
  const hooks: ModelCallHooks = {
    heartbeat: () => void (seen.heartbeats += 1),
    onTextDelta: (delta) => void seen.text.push(delta),
    onThinkingDelta: (delta) => void seen.thinking.push(delta),
  };
  return { seen, hooks };
}

describe('openai-compatible provider streaming', () => {
  const fake = useOpenAIProviderOnFakeServer();

  it('delivers text deltas in order and heartbeats once per chunk', async () => {
    fake.server.append([text('It is sunny today.', { chunkSize: 5 })]);
    const { seen, hooks } = recordingHooks();
    const reply = await fake.complete(modelRequest(), hooks);
    expect(seen.text).toEqual(['It is', ' sunn', 'y tod', 'ay.']);
    expect(reply.content).toEqual([{ type: 'text', text: 'It is sunny today.' }]);
    // role chunk + 4 text chunks + finish chunk + usage chunk + [DONE]
    expect(seen.heartbeats).toBe(8);
    expect(seen.thinking).toEqual([]);
  });

  it('passes reasoning to onThinkingDelta without keeping it in the reply', async () => {
    fake.server.append([text('42.', { reasoning: 'Six times seven.', chunkSize: 8 })]);
    const { seen, hooks } = recordingHooks();
    const reply = await fake.complete(modelRequest(), hooks);
    expect(seen.thinking).toEqual(['Six time', 's seven.']);
    expect(reply.content).toEqual([{ type: 'text', text: '42.' }]);
  });

  it('assembles several tool calls from argument fragments', async () => {
    fake.server.append([
      message(
        'Checking both.',
        [
          { name: 'get_weather', arguments: { city: 'Oslo', units: 'metric' }, id: 'call_a' },
          { name: 'get_weather', arguments: { city: 'Bergen' }, id: 'call_b' },
        ],
        { chunkSize: 3 },
      ),
    ]);
    const { seen, hooks } = recordingHooks();
    const reply = await fake.complete(modelRequest({ tools: [weatherTool] }), hooks);
    expect(reply.stopReason).toBe('tool_use');
    expect(reply.content).toEqual([
      { type: 'text', text: 'Checking both.' },
      { type: 'tool_use', id: 'call_a', name: 'get_weather', input: { city: 'Oslo', units: 'metric' } },
      { type: 'tool_use', id: 'call_b', name: 'get_weather', input: { city: 'Bergen' } },
    ]);
    expect(seen.text.join('')).toBe('Checking both.');
  });

  it('gives the same reply streamed and not streamed', async () => {
    const script: ChatScriptEntry[] = [
      text('Plain answer with ünïcödé and "quotes".', {
        usage: { prompt_tokens: 70, completion_tokens: 9, cached_tokens: 30 },
      }),
      toolUse('get_weather', { city: 'Paris', days: [1, 2] }, { id: 'call_same', text: 'One moment.' }),
      text('Truncated', { finishReason: 'length', model: 'llama3.2:3b-instruct-q4' }),
    ];
    const plain = createOpenAICompatibleProvider({ baseURL: fake.server.baseUrl, stream: false });
    for (const entry of script) {
      fake.server.append([entry, entry]);
      const streamed = await fake.complete(modelRequest({ tools: [weatherTool] }));
      const whole = await plain.complete(modelRequest({ tools: [weatherTool] }), new AbortController().signal);
      expect({ ...streamed, durationMs: 0 }).toEqual({ ...whole, durationMs: 0 });
    }
    expect(fake.server.requests.map((r) => r.body?.stream)).toEqual([
      true,
      undefined,
      true,
      undefined,
      true,
      undefined,
    ]);
  });

  it('accepts a whole JSON completion from a server that ignores stream: true', async () => {
    const completion = {
      model: 'llama3.2',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Not streamed.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 2 },
    };
    fake.server.append([httpError(200, { body: completion })]);
    const reply = await fake.complete();
    expect(reply.content).toEqual([{ type: 'text', text: 'Not streamed.' }]);
    expect(reply.stopReason).toBe('end_turn');
    expect(fake.server.requests[0]?.body?.stream).toBe(true);
  });

  it('reads usage from the final usage-only chunk', async () => {
    fake.server.append([text('ok', { usage: { prompt_tokens: 120, completion_tokens: 30, cached_tokens: null } })]);
    const reply = await fake.complete();
    expect(reply.usage).toEqual({ inputTokens: 120, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });
});
