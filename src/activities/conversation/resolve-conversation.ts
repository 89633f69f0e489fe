import { ApplicationFailure } from '@temporalio/common';
import { FailureType, nextConversationHash, NO_MESSAGES_HASH, type ModelCallInput, type ModelMessage, type ModelRequest } from '../../shared';
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
 * the run's own answer; either way every message's chained hash must come out as the workflow's,
 * so the model sees exactly the conversation the workflow holds. A mismatch or no answer is a
 * retryable ConversationUnavailable: the next attempt asks again.
 */
export async function resolveConversation(input: ModelCallInput, run: { workflowId: string; runId: string } | undefined, source: ConversationSource): Promise<ModelRequest> {
  if (!('conversation' in input)) return input;
  const { conversation, ...call } = input;
  const key = run ? `${run.workflowId}/${run.runId}` : '';
  const base = conversation.baseCount === 0 ? { messages: [], hashes: [] } : source.cache.prefix(key, conversation.baseCount, conversation.baseHash);
  let messages: ModelMessage[];
  let hashes: string[];
  if (base) {
    messages = [...base.messages, ...conversation.added];
    hashes = [...base.hashes];
    for (const message of conversation.added) hashes.push(nextConversationHash(hashes.at(-1) ?? NO_MESSAGES_HASH, message));
  } else {
    const answered = run && source.ask ? await source.ask(run.workflowId, run.runId, conversation.hash).catch(() => undefined) : undefined;
    if (!answered) throw unavailable(`this worker does not hold the first ${conversation.baseCount} messages of the conversation, and the run did not answer for them`);
    messages = [...answered];
    hashes = [];
    for (const message of messages) hashes.push(nextConversationHash(hashes.at(-1) ?? NO_MESSAGES_HASH, message));
  }
  if (messages.length !== conversation.count || (hashes.at(-1) ?? NO_MESSAGES_HASH) !== conversation.hash) {
    throw unavailable(`the rebuilt conversation (${messages.length} messages) is not the one the run sent (${conversation.count})`);
  }
  if (run) source.cache.remember(key, { messages, hashes, bytes: JSON.stringify(messages).length });
  return { ...call, messages };
}

function unavailable(why: string): ApplicationFailure {
  return ApplicationFailure.create({ type: FailureType.ConversationUnavailable, message: `The model call's conversation could not be rebuilt: ${why}. Retrying.`, nonRetryable: false });
}
