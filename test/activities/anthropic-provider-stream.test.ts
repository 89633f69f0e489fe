import { describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/activities/models/anthropic/anthropic-provider';
import type { ModelReply } from '../../src/domain';
import {
  maxTokensInToolUse,
  message,
  redactedThinkingBlock,
  renderStreamEvents,
  text,
  thinkingBlock,
  toolUse,
  toolUseBlock,
  type FakeMessageReply,
} from '../../src/testing';
import { API_KEY, modelRequest, recordingHooks, useProviderOnFakeServer, weatherTool } from './fixtures';

const fake = useProviderOnFakeServer();

/** The same script entry answered once streamed (with hooks) and once not; durations zeroed. */
async function bothWays(reply: FakeMessageReply, request = modelRequest({ tools: [weatherTool] })) {
  fake.server.append([reply, reply]);
  const recorded = recordingHooks();
  const streamed = await fake.complete(request, recorded.hooks);
  const plainProvider = createAnthropicProvider({ apiKey: API_KEY, baseURL: fake.server.baseUrl, stream: false });
  const plain = await plainProvider.complete(request, new AbortController().signal);
  expect(fake.server.requests.map((r) => r.stream)).toEqual([true, false]);
  fake.server.verify();
  const comparable = (r: ModelReply) => ({ ...r, durationMs: 0 });
  return { streamed: comparable(streamed), plain: comparable(plain), ...recorded };
}

describe('anthropic provider streaming', () => {
  it('streams a text reply: deltas in order through the hooks, a heartbeat per event, the same reply as without streaming', async () => {
    const answer = 'It is sunny in Paris today, 21 degrees, with a light breeze.';
    const { streamed, plain, log, heartbeats } = await bothWays(
      text(answer, { usage: { input_tokens: 1200, output_tokens: 18 } }),
    );
    expect(streamed).toEqual(plain);
    expect(streamed.content).toEqual([{ type: 'text', text: answer }]);
    expect(streamed.usage).toEqual({ inputTokens: 1200, outputTokens: 18, cacheReadTokens: 0, cacheWriteTokens: 0 });
    const deltas = log.filter((e) => e.startsWith('text:')).map((e) => e.slice('text:'.length));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(answer);
    // Every SSE event but the ping (the SDK drops pings before any listener sees them).
    expect(heartbeats()).toBe((fake.server.requests[0]?.eventsSent ?? NaN) - 1);
    // Each delta is announced by the heartbeat of its own event.
    log.forEach((entry, i) => entry.startsWith('text:') && expect(log[i - 1]).toBe('beat'));
  });

  it('streams a tool call whose input JSON arrives in several input_json_delta chunks', async () => {
    const input = { city: 'Paris', units: 'celsius', days: 3, include: ['wind', 'humidity'] };
    const reply = toolUse('get_weather', input, { id: 'toolu_01Fixed', text: 'Let me check.' });
    const jsonChunks = renderStreamEvents(reply, 'm').filter(
      (e) => (e.data.delta as { type?: string } | undefined)?.type === 'input_json_delta',
    );
    expect(jsonChunks.length).toBeGreaterThan(2);
    const { streamed, plain, log } = await bothWays(reply);
    expect(streamed).toEqual(plain);
    expect(streamed.stopReason).toBe('tool_use');
    expect(streamed.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_01Fixed', name: 'get_weather', input },
    ]);
    // Tool input JSON is not text: only the preamble reaches onTextDelta.
    expect(
      log
        .filter((e) => e.startsWith('text:'))
        .map((e) => e.slice('text:'.length))
        .join(''),
    ).toBe('Let me check.');
  });

  it('keeps thinking blocks with their signature and redacted thinking; thinking deltas go to onThinkingDelta only', async () => {
    const thought = 'The user asks about Paris. I should call get_weather with city Paris.';
    const reply = message([
      thinkingBlock(thought, 'EqQBCkYIBxgCKkDsig=='),
      redactedThinkingBlock('EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP'),
      toolUseBlock('get_weather', { city: 'Paris' }, 'toolu_01Think'),
    ]);
    const { streamed, plain, log } = await bothWays(reply);
    expect(streamed).toEqual(plain);
    expect(streamed.content).toEqual([
      { type: 'thinking', thinking: thought, signature: 'EqQBCkYIBxgCKkDsig==' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' },
      { type: 'tool_use', id: 'toolu_01Think', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    const thinking = log.filter((e) => e.startsWith('thinking:')).map((e) => e.slice('thinking:'.length));
    expect(thinking.length).toBeGreaterThan(1);
    expect(thinking.join('')).toBe(thought);
    expect(log.some((e) => e.startsWith('text:'))).toBe(false);
  });

  it('returns a reply cut by max_tokens inside a tool call (stopReason max_tokens), never throws', async () => {
    const input = { city: 'Paris', units: 'celsius', forecast_days: 3 };
    // Cut inside the value of `units`: the SDK's lenient parser drops the unfinished field.
    const cutAt = JSON.stringify(input).indexOf('celsius') + 3;
    const { streamed, plain } = await bothWays(
      maxTokensInToolUse('get_weather', input, { id: 'toolu_01Cut', cutAt, text: 'Checking.' }),
    );
    expect(streamed.stopReason).toBe('max_tokens');
    expect(streamed.content).toEqual([
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'toolu_01Cut', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(plain.stopReason).toBe('max_tokens');
    expect(plain.content[1]).toEqual({ type: 'tool_use', id: 'toolu_01Cut', name: 'get_weather', input: {} });
  });

  it('marks the system prompt and the last tool for prompt caching, and reports cache tokens', async () => {
    const clockTool = {
      name: 'get_time',
      description: 'Current time',
      inputSchema: { type: 'object', properties: {} },
    };
    fake.server.append([
      text('ok', {
        usage: { input_tokens: 12, output_tokens: 2, cache_read_input_tokens: 3000, cache_creation_input_tokens: 0 },
      }),
    ]);
    const reply = await fake.complete(modelRequest({ tools: [weatherTool, clockTool] }));
    expect(reply.usage).toEqual({ inputTokens: 12, outputTokens: 2, cacheReadTokens: 3000, cacheWriteTokens: 0 });
    const body = fake.server.requests[0]?.body;
    expect(body?.stream).toBe(true);
    expect(body?.system).toEqual([
      { type: 'text', text: 'You are a careful assistant.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(body?.tools?.map((t) => t.cache_control)).toEqual([undefined, { type: 'ephemeral' }]);
  });
});
