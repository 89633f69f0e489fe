import { describe, expect, it } from 'vitest';
import {
  parseArguments,
  toChatCompletionRequest,
  toChatMessages,
  toStopReason,
  toTokenUsage,
  UNPARSED_ARGUMENTS_KEY,
} from '../../../src/activities/models/openai/openai-mapping';
import { modelRequest, weatherTool } from './fixtures';

describe('openai mapping', () => {
  it('omits an empty system prompt, sends tools as functions with an object schema', () => {
    const body = toChatCompletionRequest(
      modelRequest({ system: '', tools: [{ ...weatherTool, inputSchema: { properties: {} } }], toolChoice: 'auto' }),
      false,
    );
    expect(body.messages[0]?.role).toBe('user');
    expect(body.tools?.[0]?.function.parameters).toEqual({ properties: {}, type: 'object' });
    expect(body.tool_choice).toBeUndefined();
    expect('stream' in body).toBe(false);
  });

  it('sends no tool_choice when there are no tools, even for none', () => {
    const body = toChatCompletionRequest(modelRequest({ toolChoice: 'none' }), true);
    expect(body.tools).toBeUndefined();
    expect(body.tool_choice).toBeUndefined();
    expect(body.stream_options).toEqual({ include_usage: true });
  });

  it('drops thinking blocks and joins assistant text; keeps error tool results as their text', () => {
    expect(
      toChatMessages({
        role: 'assistant',
        content: [
          { type: 'redacted_thinking', data: 'xx' },
          { type: 'text', text: 'First.' },
          { type: 'thinking', thinking: 'hmm', signature: 's' },
          { type: 'text', text: 'Second.' },
        ],
      }),
    ).toEqual([{ role: 'assistant', content: 'First.\nSecond.' }]);
    expect(
      toChatMessages({
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'call_1', content: 'Error: unknown tool "x".', isError: true },
          { type: 'tool_result', toolUseId: 'call_2', content: '42', isError: false },
        ],
      }),
    ).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'Error: unknown tool "x".' },
      { role: 'tool', tool_call_id: 'call_2', content: '42' },
    ]);
  });

  it('keeps assistant text next to tool calls', () => {
    expect(
      toChatMessages({
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'call_9', name: 'get_weather', input: { city: 'Rome' } },
        ],
      }),
    ).toEqual([
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          { id: 'call_9', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
    ]);
  });

  it.each([
    ['{"a":1}', { a: 1 }],
    ['', {}],
    ['  ', {}],
    [null, {}],
    [{ already: 'parsed' }, { already: 'parsed' }],
    ['{"a":', { [UNPARSED_ARGUMENTS_KEY]: '{"a":' }],
    ['[1,2]', { [UNPARSED_ARGUMENTS_KEY]: '[1,2]' }],
    ['"text"', { [UNPARSED_ARGUMENTS_KEY]: '"text"' }],
  ])('parses arguments %j', (raw, expected) => {
    expect(parseArguments(raw)).toEqual(expected);
  });

  it.each([
    ['stop', false, 'end_turn'],
    ['stop', true, 'tool_use'],
    ['tool_calls', true, 'tool_use'],
    ['function_call', true, 'tool_use'],
    ['length', true, 'max_tokens'],
    ['content_filter', false, 'refusal'],
    [null, false, 'unknown'],
    [undefined, false, 'unknown'],
    ['abort', false, 'abort'],
  ])('finish_reason %s (tool calls: %s) → %s', (finish, hasToolCalls, expected) => {
    expect(toStopReason(finish, hasToolCalls)).toBe(expected);
  });

  it('splits cached tokens out of prompt_tokens and never goes negative', () => {
    expect(
      toTokenUsage({ prompt_tokens: 100, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 60 } }),
    ).toEqual({
      inputTokens: 40,
      outputTokens: 7,
      cacheReadTokens: 60,
      cacheWriteTokens: 0,
    });
    expect(toTokenUsage({ prompt_tokens: 10, prompt_tokens_details: { cached_tokens: 50 } }).inputTokens).toBe(0);
    expect(toTokenUsage(null)).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });
});

describe('stop sequences', () => {
  it('are sent as `stop` (text ReAct stops before a made-up Observation), and left out when none', () => {
    const base = {
      provider: 'openai-compatible' as const,
      model: 'llama3',
      system: '',
      messages: [],
      tools: [],
      toolChoice: 'auto' as const,
      maxTokens: 10,
    };
    expect(toChatCompletionRequest({ ...base, stopSequences: ['\nObservation:'] }, false).stop).toEqual([
      '\nObservation:',
    ]);
    expect(toChatCompletionRequest(base, false)).not.toHaveProperty('stop');
  });
});
