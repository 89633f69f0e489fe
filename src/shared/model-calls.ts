import { nextConversationHash, NO_MESSAGES_HASH, type ModelCallInput } from './conversation-ref';
import type { ModelMessage, ModelRequest } from './model-wire';

/**
 * Every model call's whole request, from the `callModel` inputs of one Temporal run in the order
 * its history scheduled them: a call by reference takes its first messages from an earlier call
 * of the same run (the one whose prefix has the named hash). For an audit view of the prompts.
 * Throws when a reference names nothing earlier (a history cut short). Pure.
 */
export function modelCallsFromInputs(inputs: readonly ModelCallInput[]): ModelRequest[] {
  const earlier: Array<{ messages: ModelMessage[]; hashes: string[] }> = [];
  return inputs.map((input, index) => {
    if (!('conversation' in input)) return input;
    const { conversation, ...call } = input;
    const { baseCount, baseHash, added } = conversation;
    const base = baseCount === 0 ? { messages: [], hashes: [] } : earlier.find((e) => e.hashes[baseCount - 1] === baseHash);
    if (!base) throw new Error(`Model call ${index + 1} names ${baseCount} earlier messages that no earlier call of this run sent.`);
    const messages = [...base.messages.slice(0, baseCount), ...added];
    const hashes = base.hashes.slice(0, baseCount);
    for (const message of added) hashes.push(nextConversationHash(hashes.at(-1) ?? NO_MESSAGES_HASH, message));
    earlier.unshift({ messages, hashes });
    return { ...call, messages };
  });
}
