import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/activities/models/anthropic/anthropic-provider';
import { text, toolUse } from '../../src/testing';
import { API_KEY, modelRequest, useProviderOnFakeServer, weatherTool } from './fixtures';

describe.each([
  ['streamed', true],
  ['not streamed', false],
])('%s', (_mode, stream) => {
  const fake = useProviderOnFakeServer({ stream });
  const complete = fake.complete;

  describe('anthropic provider against the fake Messages server', () => {
    it('maps a text reply and echoes the model', async () => {
      fake.server.append([text('It is sunny.')]);
      const reply = await complete();
      expect(reply.content).toEqual([{ type: 'text', text: 'It is sunny.' }]);
      expect(reply.stopReason).toBe('end_turn');
      expect(reply.model).toBe('claude-sonnet-4-6');
      expect(reply.durationMs).toBeGreaterThanOrEqual(0);
      expect(fake.server.requests).toHaveLength(1);
      const body = fake.server.requests[0]?.body;
      expect(body?.system).toEqual([
        { type: 'text', text: 'You are a careful assistant.', cache_control: { type: 'ephemeral' } },
      ]);
      expect(body?.max_tokens).toBe(1024);
      expect(body?.tools).toBeUndefined();
      expect(body?.tool_choice).toBeUndefined();
      fake.server.verify();
    });

    it('maps a tool_use reply: blocks, generated ids, input, stop reason', async () => {
      fake.server.append([toolUse('get_weather', { city: 'Paris' }, { text: 'Let me check.' })]);
      const reply = await complete(modelRequest({ tools: [weatherTool] }));
      expect(reply.stopReason).toBe('tool_use');
      expect(reply.content[0]).toEqual({ type: 'text', text: 'Let me check.' });
      const call = reply.content[1];
      expect(call?.type).toBe('tool_use');
      if (call?.type !== 'tool_use') return;
      expect(call.id).toMatch(/^toolu_01[0-9A-Za-z]{22}$/);
      expect(call.name).toBe('get_weather');
      expect(call.input).toEqual({ city: 'Paris' });
      const body = fake.server.requests[0]?.body;
      expect(body?.tools).toEqual([
        {
          name: 'get_weather',
          description: 'Current weather for a city',
          input_schema: weatherTool.inputSchema,
          cache_control: { type: 'ephemeral' },
        },
      ]);
      expect(body?.tool_choice).toEqual({ type: 'auto' });
    });

    it('sends tool results back as tool_result blocks, and toolChoice none as tool_choice none', async () => {
      fake.server.append([toolUse('get_weather', { city: 'Paris' }), text('Sunny, 21°C.')]);
      const first = await complete(modelRequest({ tools: [weatherTool] }));
      const call = first.content[0];
      if (call?.type !== 'tool_use') throw new Error('expected a tool_use block');
      const followUp = modelRequest({
        tools: [weatherTool],
        toolChoice: 'none',
        messages: [
          ...modelRequest().messages,
          { role: 'assistant', content: first.content },
          {
            role: 'user',
            content: [{ type: 'tool_result', toolUseId: call.id, content: '{"tempC":21}', isError: false }],
          },
        ],
      });
      const second = await complete(followUp);
      expect(second.content).toEqual([{ type: 'text', text: 'Sunny, 21°C.' }]);
      const body = fake.server.requests[1]?.body;
      expect(body?.tool_choice).toEqual({ type: 'none' });
      expect(body?.messages[1]).toEqual({
        role: 'assistant',
        content: [{ type: 'tool_use', id: call.id, name: 'get_weather', input: { city: 'Paris' } }],
      });
      expect(body?.messages[2]).toEqual({
        role: 'user',
        // The conversation's last block carries the moving cache breakpoint.
        content: [
          {
            type: 'tool_result',
            tool_use_id: call.id,
            content: '{"tempC":21}',
            is_error: false,
            cache_control: { type: 'ephemeral' },
          },
        ],
      });
      fake.server.verify();
    });

    it('reports usage (null cache fields as 0) and prices it from the dated model id', async () => {
      fake.server.append([
        text('ok', {
          model: 'claude-haiku-4-5-20251001',
          usage: {
            input_tokens: 1000,
            output_tokens: 200,
            cache_read_input_tokens: null,
            cache_creation_input_tokens: 400,
          },
        }),
      ]);
      const reply = await complete(modelRequest({ model: 'claude-haiku-4-5' }));
      expect(reply.model).toBe('claude-haiku-4-5-20251001');
      expect(reply.usage).toEqual({ inputTokens: 1000, outputTokens: 200, cacheReadTokens: 0, cacheWriteTokens: 400 });
      // 1000 × $1 + 200 × $5 + 400 × $1.25, per million tokens.
      expect(reply.costUsd).toBeCloseTo(0.0025, 9);
    });

    it('costs an unknown model 0', async () => {
      fake.server.append([text('ok', { usage: { input_tokens: 1000, output_tokens: 1000 } })]);
      const reply = await complete(modelRequest({ model: 'claude-unreleased-9' }));
      expect(reply.costUsd).toBe(0);
    });

    it('honours ANTHROPIC_BASE_URL when no baseURL is given', async () => {
      const saved = process.env.ANTHROPIC_BASE_URL;
      process.env.ANTHROPIC_BASE_URL = fake.server.baseUrl;
      try {
        fake.server.append([text('via env')]);
        const reply = await createAnthropicProvider({ apiKey: API_KEY, stream }).complete(
          modelRequest(),
          new AbortController().signal,
        );
        expect(reply.content).toEqual([{ type: 'text', text: 'via env' }]);
      } finally {
        if (saved === undefined) delete process.env.ANTHROPIC_BASE_URL;
        else process.env.ANTHROPIC_BASE_URL = saved;
      }
    });

    it('sends the API key as a Bearer token (SDK 1.x) and never records it', async () => {
      fake.server.append([text('ok')]);
      await complete();
      const request = fake.server.requests[0];
      expect(request?.auth).toBe('bearer');
      expect(JSON.stringify(request)).not.toContain(API_KEY);
    });

    it('accepts an injected client using authToken', async () => {
      const client = new Anthropic({ authToken: 'oauth-token-xyz', baseURL: fake.server.baseUrl, maxRetries: 0 });
      fake.server.append([text('ok')]);
      const reply = await createAnthropicProvider({ client, stream }).complete(
        modelRequest(),
        new AbortController().signal,
      );
      expect(reply.content).toEqual([{ type: 'text', text: 'ok' }]);
      expect(fake.server.requests[0]?.headers.authorization).toBe('Bearer [redacted]');
    });
  });
});
