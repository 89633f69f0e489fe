import { conversationFromParts, wholeHash, type ModelCallInput, type ModelContext, type TextLookup } from './conversation-ref';
import type { ModelMessage, ModelRequest } from './model-wire';

/**
 * Every model call's whole request, from the `callModel` inputs of one Temporal run in the order
 * its history scheduled them: a call by reference takes its runs of messages from the earlier
 * call it names (by whole hash), and the tool results it names from `texts` (the run's runTool
 * results). For an audit view of the prompts. Throws when a reference names nothing earlier (a
 * history cut short) or a text not at hand (UnknownTextError). Pure.
 */
export function modelCallsFromInputs(inputs: readonly ModelCallInput[], texts?: TextLookup): ModelRequest[] {
  const earlier = new Map<string, { messages: ModelMessage[]; hashes: string[] }>();
  const contexts = new Map<string, ModelContext>();
  return inputs.map((input, index) => {
    if (!('conversation' in input)) return input;
    const { conversation, context: hash, ...call } = input;
    const needsBase = conversation.parts.some((part) => 'from' in part);
    const base = earlier.get(conversation.baseHash);
    if (needsBase && !base) throw new Error(`Model call ${index + 1} builds on an earlier conversation that no earlier call of this run sent.`);
    const rebuilt = conversationFromParts(conversation, base, texts);
    earlier.set(wholeHash(rebuilt.hashes), rebuilt);
    // The system prompt and tools come with the run's first call of them, and are named after.
    if ('system' in call) {
      if (hash !== undefined) contexts.set(hash, { system: call.system, tools: call.tools });
      return { ...call, messages: rebuilt.messages };
    }
    const context = hash === undefined ? undefined : contexts.get(hash);
    if (!context) throw new Error(`Model call ${index + 1} names a system prompt and tools that no earlier call of this run sent.`);
    return { ...call, ...context, messages: rebuilt.messages };
  });
}
