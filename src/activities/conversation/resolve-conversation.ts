import { ApplicationFailure } from '@temporalio/common';
import {
  contextText,
  conversationFromParts,
  chainHash,
  FailureType,
  messageHash,
  NO_MESSAGES_HASH,
  readContext,
  UnknownTextError,
  type ConversationRef,
  type ModelCallInput,
  type ModelContext,
  type ModelMessage,
  type ModelRequest,
} from '../../domain';
import type { ConversationCache, KeptConversation } from './conversation-cache';
import type { KnownTexts } from './known-texts';

/** Asks the run itself for the whole conversation of the call in flight (a query), by its hash. */
export type AskRunForConversation = (
  workflowId: string,
  runId: string,
  hash: string,
) => Promise<readonly ModelMessage[] | undefined>;

/** Where a call by reference finds the messages it does not carry. */
export interface ConversationSource {
  cache: ConversationCache;
  /** The texts this worker's tools returned, for calls that name them (known texts). */
  texts?: KnownTexts;
  /** Absent on activities built without a Temporal client: a miss then fails the attempt. */
  ask?: AskRunForConversation;
  /** Asks the run for the system prompt and tools a call names (a query); absent like `ask`. */
  askContext?: (workflowId: string, runId: string, hash: string) => Promise<ModelContext | undefined>;
}

/**
 * The whole request of a model call. A call by reference is rebuilt from the conversation this
 * worker kept for the run and the texts it kept (tool results, the system prompt and tools), or,
 * when it lacks them (a restart, another worker), from the run's own answer; either way the whole
 * hash must come out as the workflow's, so the model sees exactly what the workflow holds. A
 * mismatch or no answer is a retryable ConversationUnavailable: the next attempt asks again.
 */
export async function resolveConversation(
  input: ModelCallInput,
  run: { workflowId: string; runId: string } | undefined,
  source: ConversationSource,
): Promise<ModelRequest> {
  if (!('conversation' in input)) return input;
  const { conversation, ...call } = input;
  // Kept per workflow, not per Temporal run: a handover's next run names what the last one sent.
  const key = run ? run.workflowId : '';
  const needsBase = conversation.parts.some((part) => 'from' in part);
  const base = needsBase && run ? source.cache.find(key, conversation.baseHash) : undefined;
  let rebuilt: { messages: ModelMessage[]; hashes: string[] } | undefined;
  if (!needsBase || base) rebuilt = fromParts(conversation, base, source);
  // Built from the parts: messages taken from `base` have their sizes there (see messageSizes).
  const fromBase = rebuilt !== undefined;
  if (!rebuilt) {
    const answered =
      run && source.ask
        ? await source.ask(run.workflowId, run.runId, conversation.hash).catch(() => undefined)
        : undefined;
    if (!answered)
      throw unavailable(
        'this worker does not hold the earlier conversation it builds on, and the run did not answer for it',
      );
    rebuilt = { messages: [...answered], hashes: answered.map(messageHash) };
  }
  const prefixes = prefixHashesOver(rebuilt.hashes, base);
  const whole = prefixes.at(-1) ?? NO_MESSAGES_HASH;
  if (rebuilt.messages.length !== conversation.count || whole !== conversation.hash) {
    throw unavailable(
      `the rebuilt conversation (${rebuilt.messages.length} messages) is not the one the run sent (${conversation.count})`,
    );
  }
  if (run && whole !== NO_MESSAGES_HASH) {
    const sizes = messageSizes(rebuilt.messages, fromBase ? conversation.parts : undefined, base);
    source.cache.remember(key, { ...rebuilt, whole, prefixes, sizes, bytes: jsonArrayLength(sizes) });
  }
  const { context: _named, ...request } = call;
  return { ...request, ...(await resolveContext(call, run, source)), messages: rebuilt.messages };
}

/**
 * The call's system prompt and tools: as sent, kept under their hash for the run's later calls;
 * or, for a call that names them, from what this worker kept, else from the run (a query). Either
 * way they must hash to the name, or the attempt fails retryably (ConversationUnavailable).
 */
async function resolveContext(
  call: { context?: string; system?: string; tools?: ModelContext['tools'] },
  run: { workflowId: string; runId: string } | undefined,
  source: ConversationSource,
): Promise<ModelContext> {
  const { context: hash, system, tools } = call;
  if (system !== undefined && tools !== undefined) {
    if (hash !== undefined) source.texts?.remember(contextText({ system, tools }));
    return { system, tools };
  }
  // KnownTexts keeps each text under its own textHash: what it gives for `hash` hashes to it.
  const kept = hash === undefined ? undefined : readContext(source.texts?.get(hash), hash, true);
  if (kept) return kept;
  const answered =
    hash !== undefined && run && source.askContext
      ? await source.askContext(run.workflowId, run.runId, hash).catch(() => undefined)
      : undefined;
  const context = answered && hash !== undefined ? readContext(contextText(answered), hash) : undefined;
  if (!context)
    throw unavailable(
      'this worker does not hold the system prompt and tools the call names, and the run did not answer for them',
    );
  source.texts?.remember(contextText(context));
  return context;
}

/**
 * The whole hash of each prefix of `hashes` (wholeHash of the first 1, 2, … messages), reusing
 * those of the kept conversation it was built on as far as it starts with the same messages: a
 * conversation that grew by a turn costs a chainHash or two, not one per message (wholeHash over
 * every message made each model call's check grow with the conversation).
 */
function prefixHashesOver(hashes: readonly string[], base: KeptConversation | undefined): string[] {
  const known = base?.prefixes ?? [];
  let same = 0;
  while (same < hashes.length && same < known.length && base!.hashes[same] === hashes[same]) same += 1;
  const prefixes = known.slice(0, same);
  for (let i = same; i < hashes.length; i += 1)
    prefixes.push(chainHash(prefixes[i - 1] ?? NO_MESSAGES_HASH, hashes[i]!));
  return prefixes;
}

/**
 * Each message's JSON length: those a part takes from the kept conversation as it kept them, the
 * others measured. So a call's cache entry costs what it adds, not a JSON.stringify of the whole
 * conversation (which grew with it, on every model call's way to the model).
 */
function messageSizes(
  messages: readonly ModelMessage[],
  parts: ConversationRef['parts'] | undefined,
  base: KeptConversation | undefined,
): number[] {
  const measure = (m: ModelMessage): number => JSON.stringify(m).length;
  if (!parts || !base?.sizes) return messages.map(measure);
  const sizes: number[] = [];
  for (const part of parts) {
    if ('from' in part) sizes.push(...base.sizes.slice(part.from, part.from + part.count));
    else for (let i = 0; i < part.added.length; i += 1) sizes.push(measure(messages[sizes.length]!));
  }
  return sizes;
}

/** The length of JSON.stringify of an array whose items' JSON has these lengths. */
export const jsonArrayLength = (sizes: readonly number[]): number =>
  2 + sizes.reduce((sum, n) => sum + n, 0) + Math.max(0, sizes.length - 1);

/** The conversation from the kept one and the parts; undefined when a known text is not kept here. */
function fromParts(
  conversation: Parameters<typeof conversationFromParts>[0],
  base: Parameters<typeof conversationFromParts>[1],
  source: ConversationSource,
) {
  try {
    return conversationFromParts(conversation, base, (hash) => source.texts?.get(hash));
  } catch (err) {
    if (err instanceof UnknownTextError) return undefined;
    throw err;
  }
}

function unavailable(why: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: FailureType.ConversationUnavailable,
    message: `The model call's conversation could not be rebuilt: ${why}. Retrying.`,
    nonRetryable: false,
  });
}
