import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import {
  fromAnthropicMessage,
  toMessageCreateParams,
  toMessageParam,
  toTokenUsage,
  toTool,
  type AnthropicReplyFields,
} from '../../src/activities/models/anthropic-mapping';
import { modelRequest, weatherTool } from './fixtures';

const usage = { input_tokens: 3, output_tokens: 4, cache_creation_input_tokens: null, cache_read_input_tokens: null };

describe('toMessageCreateParams', () => {
  it('maps model, max_tokens, system and messages; leaves tools and tool_choice out when there are no tools', () => {
    const params = toMessageCreateParams(modelRequest());
    expect(params).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      system: 'You are a careful assistant.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] }],
    });
  });

  it('omits an empty system prompt', () => {
    expect(toMessageCreateParams(modelRequest({ system: '' }))).not.toHaveProperty('system');
  });

  it('sends tools with tool_choice auto or none', () => {
    const auto = toMessageCreateParams(modelRequest({ tools: [weatherTool] }));
    expect(auto.tools).toEqual([{ name: 'get_weather', description: 'Current weather for a city', input_schema: weatherTool.inputSchema }]);
    expect(auto.tool_choice).toEqual({ type: 'auto' });
    expect(toMessageCreateParams(modelRequest({ tools: [weatherTool], toolChoice: 'none' })).tool_choice).toEqual({ type: 'none' });
    expect(toMessageCreateParams(modelRequest({ toolChoice: 'none' }))).not.toHaveProperty('tool_choice');
  });
});

describe('toMessageParam', () => {
  it('maps assistant tool_use and user tool_result blocks (camelCase to snake_case)', () => {
    expect(
      toMessageParam({
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      }),
    ).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      ],
    });
    expect(
      toMessageParam({
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: 'toolu_1', content: 'unknown city', isError: true }],
      }),
    ).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'unknown city', is_error: true }] });
  });

  it('drops empty text blocks, which the API rejects', () => {
    const param = toMessageParam({
      role: 'assistant',
      content: [
        { type: 'text', text: '' },
        { type: 'tool_use', id: 'toolu_2', name: 'noop', input: {} },
      ],
    });
    expect(param.content).toEqual([{ type: 'tool_use', id: 'toolu_2', name: 'noop', input: {} }]);
  });
});

describe('toTool', () => {
  it('forces an object schema at the top level', () => {
    expect(toTool({ name: 't', description: 'd', inputSchema: { properties: {} } }).input_schema).toEqual({ properties: {}, type: 'object' });
  });
});

describe('fromAnthropicMessage', () => {
  const reply = (content: unknown[], stop_reason: string | null = 'end_turn'): AnthropicReplyFields =>
    ({ content, stop_reason, model: 'claude-opus-4-6', usage }) as AnthropicReplyFields;

  it('keeps text and tool_use blocks and drops other block types', () => {
    const mapped = fromAnthropicMessage(
      reply(
        [
          { type: 'thinking', thinking: 'hmm', signature: 'sig' },
          { type: 'text', text: 'Let me look.', citations: null },
          { type: 'tool_use', id: 'toolu_9', name: 'search', input: { q: 'x' }, caller: { type: 'direct' } },
        ],
        'tool_use',
      ),
    );
    expect(mapped.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_9', name: 'search', input: { q: 'x' } },
    ]);
    expect(mapped.stopReason).toBe('tool_use');
    expect(mapped.model).toBe('claude-opus-4-6');
  });

  it('maps a null stop reason to unknown, never to tool_use', () => {
    expect(fromAnthropicMessage(reply([], null)).stopReason).toBe('unknown');
  });
});

describe('toTokenUsage', () => {
  it('maps all four counters and turns null into 0', () => {
    expect(toTokenUsage(usage)).toEqual({ inputTokens: 3, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 });
    const full: Pick<Anthropic.Usage, 'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens'> = {
      input_tokens: 1,
      output_tokens: 2,
      cache_creation_input_tokens: 30,
      cache_read_input_tokens: 40,
    };
    expect(toTokenUsage(full)).toEqual({ inputTokens: 1, outputTokens: 2, cacheReadTokens: 40, cacheWriteTokens: 30 });
  });
});
