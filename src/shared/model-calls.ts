import { conversationFromParts, wholeHash, type ModelCallInput } from './conversation-ref';
import type { ModelMessage, ModelRequest } from './model-wire';

/**
 * Every model call's whole request, from the `callModel` inputs of one Temporal run in the order
 * its history scheduled them: a call by reference takes its runs of messages from the earlier
 * call it names (by whole hash). For an audit view of the prompts. Throws when a reference names
 * nothing earlier (a history cut short). Pure.
 */
export function modelCallsFromInputs(inputs: readonly ModelCallInput[]): ModelRequest[] {
  const earlier = new Map<string, { messages: ModelMessage[]; hashes: string[] }>();
  return inputs.map((input, index) => {
    if (!('conversation' in input)) return input;
    const { conversation, ...call } = input;
    const needsBase = conversation.parts.some((part) => 'from' in part);
    const base = earlier.get(conversation.baseHash);
    if (needsBase && !base) throw new Error(`Model call ${index + 1} builds on an earlier conversation that no earlier call of this run sent.`);
    const rebuilt = conversationFromParts(conversation, base);
    earlier.set(wholeHash(rebuilt.hashes), rebuilt);
    return { ...call, messages: rebuilt.messages };
  });
}
