import { chainHash, replyMessage, textHash, type AssistantBlock } from '../../domain';
import type { ConversationCache } from './conversation-cache';

/**
 * After a call by reference (its conversation's whole hash `sentHash`): keeps that conversation
 * with the reply added, so the run's next call names the reply (the workflow notes it the same
 * way: SentConversations.replied) instead of recording it again after the call's result. Nothing
 * happens when the conversation is no longer kept; the next call then asks the run.
 */
export function rememberReply(
  cache: ConversationCache,
  workflowId: string,
  sentHash: string,
  content: AssistantBlock[],
): void {
  const sent = cache.find(workflowId, sentHash);
  if (!sent) return;
  const message = replyMessage(content);
  const json = JSON.stringify(message);
  const hash = textHash(json); // messageHash, without making the JSON twice
  const whole = chainHash(sent.whole, hash);
  cache.remember(workflowId, {
    messages: [...sent.messages, message],
    hashes: [...sent.hashes, hash],
    whole,
    ...(sent.prefixes ? { prefixes: [...sent.prefixes, whole] } : {}),
    ...(sent.sizes ? { sizes: [...sent.sizes, json.length] } : {}),
    bytes: sent.bytes + json.length + (sent.messages.length ? 1 : 0),
  });
}
