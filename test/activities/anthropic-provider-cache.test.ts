import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/activities/models/anthropic/anthropic-provider';
import { costOf } from '../../src/activities/models/pricing';
import type { ModelMessage, ModelReply } from '../../src/domain';
import { startFakeMessagesServer, text, toolUse, type FakeMessagesServer } from '../../src/testing';
import { API_KEY, modelRequest, weatherTool } from './fixtures';

describe.each([
  { mode: 'streamed', stream: true },
  { mode: 'not streamed', stream: false },
])('anthropic provider with prompt caching on the fake server ($mode)', ({ stream }) => {
  let server: FakeMessagesServer;
  beforeEach(async () => {
    server = await startFakeMessagesServer({ promptCache: { minTokens: 50 } });
  });
  afterEach(async () => {
    await server.close();
  });

  it('reports the cache reads and writes of each call in its usage, and prices them', async () => {
    const provider = createAnthropicProvider({ apiKey: API_KEY, baseURL: server.baseUrl, stream });
    const system = `You are a careful assistant. ${'Follow the house rules. '.repeat(30)}`;
    const messages: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Weather in 3 cities?' }] }];
    const replies: ModelReply[] = [];
    const cities = ['Paris', 'Lyon', 'Nice'];
    server.append([
      ...cities.map((city, i) => toolUse('get_weather', { city }, { id: `call-${i}` })),
      text('All sunny.'),
    ]);
    for (let i = 0; i <= cities.length; i++) {
      const reply = await provider.complete(
        modelRequest({ system, tools: [weatherTool], messages: [...messages] }),
        new AbortController().signal,
      );
      replies.push(reply);
      messages.push({ role: 'assistant', content: reply.content });
      messages.push({
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: `call-${i}`, content: `{"tempC":${20 + i}}`, isError: false }],
      });
    }
    const [first, ...later] = replies.map((r) => r.usage);
    expect(first).toMatchObject({ cacheReadTokens: 0, inputTokens: 0 });
    expect(first?.cacheWriteTokens).toBeGreaterThan(0);
    for (const usage of later) {
      // Each call reads all the previous call wrote and writes only the turn it appended.
      expect(usage.cacheReadTokens).toBeGreaterThan(usage.cacheWriteTokens);
      expect(usage.inputTokens).toBe(0);
    }
    // Each call's read is exactly the previous call's whole prompt.
    for (let i = 1; i < replies.length; i++) {
      const previous = replies[i - 1]!.usage;
      expect(replies[i]!.usage.cacheReadTokens).toBe(previous.cacheReadTokens + previous.cacheWriteTokens);
    }
    for (const reply of replies) {
      expect(reply.costUsd).toBe(costOf('claude-sonnet-4-6', reply.usage));
      expect(reply.costUsd).toBeGreaterThan(0);
    }
    const totals = server.cacheTotals();
    expect(totals.cacheReadTokens).toBe(replies.reduce((sum, r) => sum + r.usage.cacheReadTokens, 0));
    expect(totals.cacheWriteTokens).toBe(replies.reduce((sum, r) => sum + r.usage.cacheWriteTokens, 0));
    expect(totals.outputTokens).toBe(replies.reduce((sum, r) => sum + r.usage.outputTokens, 0));
    server.verify();
  });
});
