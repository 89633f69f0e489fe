import { ApplicationFailure } from '@temporalio/common';
import { conversationFromParts, FailureType, messageHash, NO_MESSAGES_HASH, wholeHash, type ModelCallInput, type ModelMessage, type ModelRequest } from '../../shared';
import type { ConversationCache } from './conversation-cache';

/** Asks the run itself for the whole conversation of the call in flight (a query), by its hash. */
export type AskRunForConversation = (workflowId: string, runId: string, hash: string) => Promise<readonly ModelMessage[] | undefined>;

/** Where a call by reference finds the messages it does not carry. */
export interface ConversationSource {
  cache: ConversationCache;
  /** Absent on activities built without a Temporal client: a miss then fails the attempt. */
  ask?: AskRunForConversation;
}

/**
 * The whole request of a model call. A call by reference is rebuilt from the conversation this
 * worker kept for the run, or, when it kept none that matches (a restart, another worker), from
 * the run's own answer; either way the whole hash must come out as the workflow's, so the model
 * sees exactly the conversation the workflow holds. A mismatch or no answer is a retryable
 * ConversationUnavailable: the next attempt asks again.
 */
export async function resolveConversation(input: ModelCallInput, run: { workflowId: string; runId: string } | undefined, source: ConversationSource): Promise<ModelRequest> {
  if (!('conversation' in input)) return input;
  const { conversation, ...call } = input;
  const key = run ? `${run.workflowId}/${run.runId}` : '';
  const needsBase = conversation.parts.some((part) => 'from' in part);
  const base = needsBase && run ? source.cache.find(key, conversation.baseHash) : undefined;
  let rebuilt: { messages: ModelMessage[]; hashes: string[] } | undefined;
  if (!needsBase || base) rebuilt = conversationFromParts(conversation, base);
  else {
    const answered = run && source.ask ? await source.ask(run.workflowId, run.runId, conversation.hash).catch(() => undefined) : undefined;
    if (!answered) throw unavailable('this worker does not hold the earlier conversation it builds on, and the run did not answer for it');
    rebuilt = { messages: [...answered], hashes: answered.map(messageHash) };
  }
  const whole = wholeHash(rebuilt.hashes);
  if (rebuilt.messages.length !== conversation.count || whole !== conversation.hash) {
    throw unavailable(`the rebuilt conversation (${rebuilt.messages.length} messages) is not the one the run sent (${conversation.count})`);
  }
  if (run && whole !== NO_MESSAGES_HASH) source.cache.remember(key, { ...rebuilt, whole, bytes: JSON.stringify(rebuilt.messages).length });
  return { ...call, messages: rebuilt.messages };
}

function unavailable(why: string): ApplicationFailure {
  return ApplicationFailure.create({ type: FailureType.ConversationUnavailable, message: `The model call's conversation could not be rebuilt: ${why}. Retrying.`, nonRetryable: false });
}
