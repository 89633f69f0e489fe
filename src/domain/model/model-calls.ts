import { SentConversation } from '../run/continued-state';
import {
  contextText,
  conversationFromParts,
  messageHash,
  replyMessage,
  textHash,
  wholeHash,
  type ModelCallInput,
  type ModelContext,
  type TextLookup,
} from '../threads/conversation-ref';
import type { AssistantBlock, ModelMessage, ModelRequest } from './model-wire';
import { toModelTool } from '../tools/offered-tool';
import type { ToolSpec } from '../tools/tool-spec';

/** A conversation rebuilt from a history, with its messages' hashes. */
export interface RebuiltConversation {
  messages: ModelMessage[];
  hashes: string[];
}

/**
 * Every model call's whole request, from the `callModel` inputs of one Temporal run in the order
 * its history scheduled them: a call by reference takes its runs of messages from the earlier
 * call it names (by whole hash), and the tool results it names from `texts` (the runTool results
 * of the run and of those before it). `before` holds the conversations the Temporal run before
 * this one sent last (lastConversations): a handover's first call builds on one of them. For an
 * audit view of the prompts. `replies[i]` is what call i received, as recorded: the next call may
 * build on its conversation with that reply (REPLY_BY_REFERENCE_PATCH). `described[i]`: the
 * registered tools call i described itself (its result's describedTools), offered before its own
 * tools; the worker kept that whole context, and the next call names it. Throws when a reference
 * names nothing earlier (a history cut short) or a text not at hand (UnknownTextError). Pure.
 */
export function modelCallsFromInputs(
  inputs: readonly ModelCallInput[],
  texts?: TextLookup,
  before: ReadonlyMap<string, RebuiltConversation> = new Map(),
  replies: readonly (readonly AssistantBlock[] | undefined)[] = [],
  described: readonly (readonly ToolSpec[] | undefined)[] = [],
): ModelRequest[] {
  const earlier = new Map(before);
  const contexts = new Map<string, ModelContext>();
  const offered = (request: ModelRequest, index: number): ModelRequest => {
    const registered = described[index];
    const { describeTools: _asked, ...sent } = request;
    if (!registered) return sent;
    const tools = [...registered.map(toModelTool), ...sent.tools];
    contexts.set(textHash(contextText({ system: sent.system, tools })), { system: sent.system, tools });
    return { ...sent, tools };
  };
  return inputs.map((input, index) => {
    if (!('conversation' in input)) return offered(input, index);
    const { conversation, context: hash, ...call } = input;
    const needsBase = conversation.parts.some((part) => 'from' in part);
    const base = earlier.get(conversation.baseHash);
    if (needsBase && !base)
      throw new Error(`Model call ${index + 1} builds on an earlier conversation that no earlier call sent.`);
    const rebuilt = conversationFromParts(conversation, base, texts);
    earlier.set(wholeHash(rebuilt.hashes), rebuilt);
    const reply = replies[index];
    if (reply) earlier.set(...withReply(rebuilt, reply));
    // The system prompt and tools come with the run's first call of them, and are named after.
    if ('system' in call) {
      if (hash !== undefined) contexts.set(hash, { system: call.system, tools: call.tools });
      return offered({ ...call, messages: rebuilt.messages }, index);
    }
    const context = hash === undefined ? undefined : contexts.get(hash);
    if (!context)
      throw new Error(`Model call ${index + 1} names a system prompt and tools that no earlier call of this run sent.`);
    return offered({ ...call, ...context, messages: rebuilt.messages }, index);
  });
}

/** Conversations a run remembers for its next call to build on (the loop's and a side call's), with one to spare. */
const LAST_CONVERSATIONS = 3;

/**
 * The conversations of a Temporal run's last calls, by whole hash: the next Temporal run's first
 * call may build on one of them (the handover names the one its messages start with).
 */
export function lastConversations(
  requests: readonly ModelRequest[],
  replies: readonly (readonly AssistantBlock[] | undefined)[] = [],
): Map<string, RebuiltConversation> {
  const last = new Map<string, RebuiltConversation>();
  const from = Math.max(0, requests.length - LAST_CONVERSATIONS);
  requests.slice(from).forEach(({ messages }, i) => {
    const hashes = messages.map(messageHash);
    const sent = { messages: [...messages], hashes };
    last.set(wholeHash(hashes), sent);
    const reply = replies[from + i];
    if (reply) last.set(...withReply(sent, reply));
  });
  return last;
}

/** A conversation with the reply it received added, by its whole hash (what the worker keeps: rememberReply). */
function withReply(sent: RebuiltConversation, reply: readonly AssistantBlock[]): [string, RebuiltConversation] {
  const message = replyMessage(reply);
  const hashes = [...sent.hashes, messageHash(message)];
  return [wholeHash(hashes), { messages: [...sent.messages, message], hashes }];
}

/**
 * What a Temporal run's start input carried for its first call (a handover's `continued`, as
 * recorded): the conversation the run before sent last, when the carried messages start with it
 * (the check the workflow makes, on the messages as recorded), and the tool results the call may
 * name as known texts. So a run's calls rebuild without the run before it (gone past retention).
 * Whatever does not read is left out: a call that needed it then fails to rebuild, as before.
 */
export function carriedConversations(continued: unknown): {
  conversations: Map<string, RebuiltConversation>;
  texts: Map<string, string>;
} {
  const conversations = new Map<string, RebuiltConversation>();
  const texts = new Map<string, string>();
  const carried =
    typeof continued === 'object' && continued !== null
      ? (continued as { messages?: unknown; sentConversation?: unknown })
      : {};
  // Hashed as recorded, not parsed: a parse could reorder keys, and the hash is of the JSON.
  const messages = Array.isArray(carried.messages) ? (carried.messages as ModelMessage[]) : [];
  for (const message of messages) {
    if (message?.role !== 'user' || !Array.isArray(message.content)) continue;
    for (const block of message.content)
      if (block?.type === 'tool_result' && typeof block.content === 'string')
        texts.set(textHash(block.content), block.content);
  }
  const sent = SentConversation.safeParse(carried.sentConversation);
  if (sent.success && sent.data.messages <= messages.length) {
    const prefix = messages.slice(0, sent.data.messages);
    const hashes = prefix.map(messageHash);
    if (wholeHash(hashes) === sent.data.hash) conversations.set(sent.data.hash, { messages: prefix, hashes });
  }
  return { conversations, texts };
}
