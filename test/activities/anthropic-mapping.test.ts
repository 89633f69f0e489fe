import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import {
  fromAnthropicMessage,
  toMessageCreateParams,
  toMessageParam,
  toTokenUsage,
  toTool,
  type AnthropicReplyFields,
} from '../../src/activities/models/anthropic/anthropic-mapping';
import { modelRequest, weatherTool } from './fixtures';

const usage = { input_tokens: 3, output_tokens: 4, cache_creation_input_tokens: null, cache_read_input_tokens: null };

describe('toMessageCreateParams', () => {
  it('maps model, max_tokens, system (a cached text block) and messages; leaves tools and tool_choice out when there are no tools', () => {
    const params = toMessageCreateParams(modelRequest());
    expect(params).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      system: [{ type: 'text', text: 'You are a careful assistant.', cache_control: { type: 'ephemeral' } }],
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'What is the weather in Paris?', cache_control: { type: 'ephemeral' } }],
        },
      ],
    });
  });

  it('marks only the last tool for caching, so tools and system form the first cached prefix', () => {
    const clockTool = {
      name: 'get_time',
      description: 'Current time',
      inputSchema: { type: 'object', properties: {} },
    };
    const params = toMessageCreateParams(modelRequest({ tools: [weatherTool, clockTool] }));
    expect(params.tools?.map((tool) => ('cache_control' in tool ? tool.cache_control : undefined))).toEqual([
      undefined,
      { type: 'ephemeral' },
    ]);
    // The conversation's own breakpoints: anthropic-cache-breakpoints.test.ts.
    expect(params.messages[0]).toHaveProperty('content.0.cache_control', { type: 'ephemeral' });
  });

  it('omits an empty system prompt', () => {
    expect(toMessageCreateParams(modelRequest({ system: '' }))).not.toHaveProperty('system');
  });

  it('sends tools with tool_choice auto or none', () => {
    const auto = toMessageCreateParams(modelRequest({ tools: [weatherTool] }));
    expect(auto.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather for a city',
        input_schema: weatherTool.inputSchema,
        cache_control: { type: 'ephemeral' },
      },
    ]);
    expect(auto.tool_choice).toEqual({ type: 'auto' });
    expect(toMessageCreateParams(modelRequest({ tools: [weatherTool], toolChoice: 'none' })).tool_choice).toEqual({
      type: 'none',
    });
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
    ).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'unknown city', is_error: true }],
    });
  });

  it('sends thinking and redacted thinking back unchanged, signature included, in their original place', () => {
    const param = toMessageParam({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Paris first.', signature: 'EqQBsig' },
        { type: 'redacted_thinking', data: 'EmwKopaque' },
        { type: 'tool_use', id: 'toolu_3', name: 'get_weather', input: { city: 'Paris' } },
      ],
    });
    expect(param.content).toEqual([
      { type: 'thinking', thinking: 'Paris first.', signature: 'EqQBsig' },
      { type: 'redacted_thinking', data: 'EmwKopaque' },
      { type: 'tool_use', id: 'toolu_3', name: 'get_weather', input: { city: 'Paris' } },
    ]);
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
    expect(toTool({ name: 't', description: 'd', inputSchema: { properties: {} } }).input_schema).toEqual({
      properties: {},
      type: 'object',
    });
  });
});

describe('fromAnthropicMessage', () => {
  const reply = (content: unknown[], stop_reason: string | null = 'end_turn'): AnthropicReplyFields =>
    ({ content, stop_reason, model: 'claude-opus-4-6', usage }) as AnthropicReplyFields;

  it('keeps thinking (with signature), redacted thinking, text and tool_use blocks in order; drops server-tool blocks', () => {
    const mapped = fromAnthropicMessage(
      reply(
        [
          { type: 'thinking', thinking: 'hmm', signature: 'sig' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'Let me look.', citations: null },
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
          { type: 'tool_use', id: 'toolu_9', name: 'search', input: { q: 'x' }, caller: { type: 'direct' } },
        ],
        'tool_use',
      ),
    );
    expect(mapped.content).toEqual([
      { type: 'thinking', thinking: 'hmm', signature: 'sig' },
      { type: 'redacted_thinking', data: 'opaque' },
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
    const full: Pick<
      Anthropic.Usage,
      'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens'
    > = {
      input_tokens: 1,
      output_tokens: 2,
      cache_creation_input_tokens: 30,
      cache_read_input_tokens: 40,
    };
    expect(toTokenUsage(full)).toEqual({ inputTokens: 1, outputTokens: 2, cacheReadTokens: 40, cacheWriteTokens: 30 });
  });
});

describe('stop sequences', () => {
  it('are sent as stop_sequences (text ReAct stops before a made-up Observation), and left out when none', () => {
    expect(toMessageCreateParams(modelRequest({ stopSequences: ['\nObservation:'] })).stop_sequences).toEqual([
      '\nObservation:',
    ]);
    expect(toMessageCreateParams(modelRequest())).not.toHaveProperty('stop_sequences');
  });
});
