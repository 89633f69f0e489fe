import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import {
  breakpointMessages,
  withConversationBreakpoints,
} from '../../src/activities/models/anthropic/anthropic-cache-breakpoints';
import { toMessageCreateParams } from '../../src/activities/models/anthropic/anthropic-mapping';
import type { ModelMessage } from '../../src/domain';
import { modelRequest, weatherTool } from './fixtures';

const EPHEMERAL = { type: 'ephemeral' };

/** A ReAct conversation of `turns` model turns: thinking, an empty text, text and two tool calls, then their results. */
function conversation(turns: number): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Plan a trip to Paris.' }] }];
  for (let t = 1; t <= turns; t++) {
    messages.push({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: `step ${t}`, signature: `sig-${t}` },
        { type: 'text', text: '' },
        { type: 'text', text: `Checking ${t}.` },
        { type: 'tool_use', id: `call-${t}a`, name: 'get_weather', input: { city: 'Paris' } },
        { type: 'tool_use', id: `call-${t}b`, name: 'get_weather', input: { city: 'Lyon' } },
      ],
    });
    messages.push({
      role: 'user',
      content: [
        { type: 'tool_result', toolUseId: `call-${t}a`, content: `{"tempC":${t}}`, isError: false },
        { type: 'tool_result', toolUseId: `call-${t}b`, content: `{"tempC":${t + 1}}`, isError: false },
      ],
    });
  }
  return messages;
}

const paramsAt = (turns: number) =>
  toMessageCreateParams(modelRequest({ tools: [weatherTool], messages: conversation(turns) }));

/** Every marked block as `where:type`, in the API's order (tools, system, messages). */
function markers(params: Anthropic.MessageCreateParamsNonStreaming): string[] {
  const out: string[] = [];
  params.tools?.forEach((tool, i) => {
    if ('cache_control' in tool && tool.cache_control) out.push(`tool${i}`);
  });
  if (Array.isArray(params.system)) {
    params.system.forEach((block, i) => {
      if (block.cache_control) out.push(`system${i}:text`);
    });
  }
  params.messages.forEach((message, m) => {
    if (typeof message.content === 'string') return;
    message.content.forEach((block, b) => {
      if ('cache_control' in block && block.cache_control) out.push(`m${m}.${b}:${block.type}`);
    });
  });
  return out;
}

describe('conversation cache breakpoints', () => {
  it('first call: tools, system and the task, the only message', () => {
    expect(markers(paramsAt(0))).toEqual(['tool0', 'system0:text', 'm0.0:text']);
  });

  it('later calls: tools, system, where the previous call ended, and the last block (four, the limit)', () => {
    expect(markers(paramsAt(1))).toEqual(['tool0', 'system0:text', 'm0.0:text', 'm2.1:tool_result']);
    expect(markers(paramsAt(5))).toEqual(['tool0', 'system0:text', 'm8.1:tool_result', 'm10.1:tool_result']);
  });

  it("puts the anchor of each call on the block the previous call's tail marked, over a 12-turn run", () => {
    for (let turns = 1; turns <= 12; turns++) {
      const previous = markers(paramsAt(turns - 1)).at(-1);
      const current = markers(paramsAt(turns));
      expect(current.length).toBeLessThanOrEqual(4);
      expect(current.at(-2)).toBe(previous);
    }
  });

  it('never marks a thinking block or an empty text block; tool_use and tool_result blocks may carry one', () => {
    const tailAssistant = withConversationBreakpoints([
      { role: 'user', content: [{ type: 'text', text: 'Go.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 'call-1', name: 'get_weather', input: {} },
          { type: 'text', text: '' },
          { type: 'thinking', thinking: 'hmm', signature: 'sig' },
          { type: 'redacted_thinking', data: 'opaque' },
        ],
      },
    ]);
    expect(tailAssistant[1]?.content).toEqual([
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 'call-1', name: 'get_weather', input: {}, cache_control: EPHEMERAL },
      { type: 'text', text: '' },
      { type: 'thinking', thinking: 'hmm', signature: 'sig' },
      { type: 'redacted_thinking', data: 'opaque' },
    ]);
  });

  it('leaves a message with no cacheable block unmarked rather than marking a refused block', () => {
    const onlyThinking: Anthropic.MessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: 'Go.' }] },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }] },
    ];
    const marked = withConversationBreakpoints(onlyThinking);
    expect(marked[1]).toEqual(onlyThinking[1]);
    expect(marked[0]?.content).toEqual([{ type: 'text', text: 'Go.', cache_control: EPHEMERAL }]);
    // The input is never changed.
    expect(onlyThinking[1]?.content).toEqual([{ type: 'thinking', thinking: 'hmm', signature: 'sig' }]);
  });

  it('places the anchor before the latest assistant turn and at most two conversation breakpoints', () => {
    const roles = (...r: Array<'user' | 'assistant'>) => r.map((role) => ({ role, content: 'x' }));
    expect(breakpointMessages([])).toEqual([]);
    expect(breakpointMessages(roles('user'))).toEqual([0]);
    expect(breakpointMessages(roles('user', 'assistant', 'user'))).toEqual([0, 2]);
    expect(breakpointMessages(roles('user', 'assistant', 'user', 'assistant', 'user'))).toEqual([2, 4]);
    // A prefilled assistant turn last: the anchor is the message before it.
    expect(breakpointMessages(roles('user', 'assistant', 'user', 'assistant'))).toEqual([2, 3]);
  });

  it('sends no marker on messages the mapping received, and ModelRequest carries none (nothing reaches history)', () => {
    const request = modelRequest({ tools: [weatherTool], messages: conversation(3) });
    const before = JSON.stringify(request);
    toMessageCreateParams(request);
    expect(JSON.stringify(request)).toBe(before);
    expect(before).not.toContain('cache_control');
  });
});
