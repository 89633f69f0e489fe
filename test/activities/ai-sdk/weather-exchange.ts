import { expect } from 'vitest';
import type { ModelMessage, ModelReply } from '../../../src/domain';
import type { modelRequest } from '../fixtures';

type Complete = (overrides?: Parameters<typeof modelRequest>[0]) => Promise<ModelReply>;

/**
 * The exchange every wired AI SDK package is tried with (docs/providers.md): the model calls
 * `get_weather` for Paris, then reads the result back and answers "Paris: 12°C, light rain."
 * with 40 input and 9 output tokens. The caller's fake server scripts both replies; this checks
 * what the provider made of them, whatever the wire protocol, and returns the call's id.
 */
export async function weatherExchange(complete: Complete): Promise<string> {
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
  return callId;
}
