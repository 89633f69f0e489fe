import type { Client } from '@temporalio/client';
import {
  carriedConversations,
  lastConversations,
  ModelReply,
  ModelRequest,
  modelCallsFromInputs,
  observationText,
  textHash,
  ToolSpec,
  type AssistantBlock,
  type ModelCallInput,
  type ReasoningChain,
  type ReasoningStep,
  type RebuiltConversation,
} from '../../domain';
import { z } from 'zod';
import { readRunInput } from '../runs/read-run-input';
import { unlessRunGone } from '../errors/run-gone';
import { recordedActivities } from './recorded-activities';

/** One model call exactly as sent and answered: its `llm` step pair, the whole request and the reply (or why there is none). */
export const AuditModelCall = z.object({
  /** The `llm` tool_call step of the call. */
  stepNumber: z.number().int().positive(),
  runId: z.string(),
  request: ModelRequest,
  reply: ModelReply.optional(),
  /** Set when the call failed, or its reply is not in the history yet. */
  error: z.string().optional(),
});
export type AuditModelCall = z.infer<typeof AuditModelCall>;

/** The model calls' requests and replies could not be matched with the chain's `llm` steps. */
export class ModelCallHistoryError extends Error {
  override readonly name = 'ModelCallHistoryError';
}

const goneSteps = ({ runId, throughStep }: NonNullable<ReasoningChain['unavailable']>): string =>
  `Steps 1–${throughStep} are no longer on the Temporal server (run ${runId} is past the namespace's retention or deleted)`;

/**
 * What an audit says of the model calls of a chain whose first steps are gone: from which step
 * they are rebuilt (`calls`, from modelCallsOfRun), or why none is (`failure`).
 */
export function modelCallsGoneNote(
  gone: NonNullable<ReasoningChain['unavailable']>,
  left: { calls: readonly AuditModelCall[] } | { failure: string },
): string {
  if ('failure' in left)
    return `${goneSteps(gone)}, and the model calls still there could not be rebuilt: ${left.failure}`;
  const first = left.calls[0];
  return first
    ? `${goneSteps(gone)}: the model calls are rebuilt from step ${first.stepNumber} on; those before it went with the Temporal runs that made them.`
    : `${goneSteps(gone)}: none of the run's model calls is left on the server.`;
}

/**
 * The `callModel` activities of a Temporal run (each input as recorded, and how it ended), and
 * the texts its tools returned, by hash: the calls name those instead of recording them again.
 */
async function recordedCalls(client: Client, workflowId: string, runId: string) {
  const recorded = await recordedActivities(client, workflowId, runId, ['callModel', 'runTool']);
  const texts = new Map<string, string>();
  for (const r of recorded) {
    const output =
      r.type === 'runTool' && r.result !== null && typeof r.result === 'object'
        ? (r.result as { result?: unknown }).result
        : undefined;
    const text = output === undefined ? undefined : observationText(output);
    if (typeof text === 'string') texts.set(textHash(text), text);
  }
  const calls = recorded
    .filter((r) => r.type === 'callModel')
    .map(
      (
        r,
      ): {
        runId: string;
        input: ModelCallInput;
        reply?: ModelReply;
        received?: AssistantBlock[];
        described?: ToolSpec[];
        error?: string;
      } => {
        const reply = r.result === undefined ? undefined : ModelReply.safeParse(r.result);
        const error =
          r.error ?? (reply && !reply.success ? 'the recorded reply does not read as a model reply' : undefined);
        // The next call names the reply's content as recorded (hashed as JSON): not as parsed, which may reorder keys.
        const received = reply?.success ? (r.result as { content: AssistantBlock[] }).content : undefined;
        // The run's first call described its registered tools (ModelCallResult.describedTools).
        const described = reply?.success
          ? ToolSpec.array().safeParse((r.result as { describedTools?: unknown }).describedTools)
          : undefined;
        return {
          runId,
          input: r.input as ModelCallInput,
          ...(reply?.success ? { reply: reply.data, received } : {}),
          ...(described?.success ? { described: described.data } : {}),
          ...(error ? { error } : {}),
        };
      },
    );
  return { calls, texts };
}

/**
 * Every model call of an agent run exactly as sent and answered, paired with the chain's `llm`
 * steps: the n-th `llm` tool_call step is the n-th `callModel` activity across the Temporal runs
 * (oldest first), and each pair must agree on the model and the number of messages, else
 * ModelCallHistoryError (never a silent mismatch). `steps` is the whole, unfiltered chain.
 *
 * A chain whose first steps are gone (`stepsGone`, its `unavailable`) pairs from the end: the
 * calls of the Temporal runs still on the server with its last `llm` steps. The first of those
 * runs builds on what its start input carried (carriedConversations) instead of the run before.
 */
export async function modelCallsOfRun(
  client: Client,
  workflowId: string,
  runIds: readonly string[],
  steps: readonly ReasoningStep[],
  stepsGone?: ReasoningChain['unavailable'],
): Promise<AuditModelCall[]> {
  let calls: Array<
    Awaited<ReturnType<typeof recordedCalls>>['calls'][number] & {
      request: ReturnType<typeof modelCallsFromInputs>[number];
    }
  > = [];
  // A handover's first call names tool results earlier Temporal runs returned, and builds on the conversation the run before it sent last.
  const texts = new Map<string, string>();
  // Undefined: the run before is not read, so the next run builds on what its start input carried.
  let before: Map<string, RebuiltConversation> | undefined = stepsGone ? undefined : new Map();
  for (const runId of runIds) {
    const recorded = stepsGone
      ? await unlessRunGone(() => recordedCalls(client, workflowId, runId))
      : await recordedCalls(client, workflowId, runId);
    if (!recorded) {
      // Only the calls after a gone run pair with the steps that are left.
      [calls, before] = [[], undefined];
      continue;
    }
    if (!before) before = await carriedInto(client, workflowId, runId, texts);
    for (const [hash, text] of recorded.texts) texts.set(hash, text);
    const known = before;
    const replies = recorded.calls.map((r) => r.received);
    const requests = rebuilt(() =>
      modelCallsFromInputs(
        recorded.calls.map((r) => r.input),
        (hash) => texts.get(hash),
        known,
        replies,
        recorded.calls.map((r) => r.described),
      ),
    );
    before = lastConversations(requests, replies);
    recorded.calls.forEach((r, i) => calls.push({ ...r, request: requests[i]! }));
  }
  // The run's own model calls; ask_model's llm steps are tool activities, and their arguments carry no toolChoice.
  let llmSteps = steps.filter(
    (s): s is Extract<ReasoningStep, { type: 'tool_call' }> =>
      s.type === 'tool_call' && s.toolCall.toolType === 'llm' && 'toolChoice' in s.toolCall.arguments,
  );
  if (stepsGone) {
    // Both are the tail of one sequence: the steps after the gone ones, the calls after the gone runs.
    const paired = Math.min(llmSteps.length, calls.length);
    [llmSteps, calls] = [llmSteps.slice(llmSteps.length - paired), calls.slice(calls.length - paired)];
  } else if (llmSteps.length !== calls.length) {
    throw new ModelCallHistoryError(
      `The chain has ${llmSteps.length} model call step(s) but the history ${calls.length} model call(s); the chain may be incomplete.`,
    );
  }
  return llmSteps.map((step, i) => {
    const call = calls[i]!;
    const counted = step.toolCall.arguments.messages;
    if (
      call.request.model !== step.toolCall.toolName ||
      (typeof counted === 'number' && counted !== call.request.messages.length)
    ) {
      throw new ModelCallHistoryError(
        `Model call step ${step.stepNumber} (${step.toolCall.toolName}) does not match the history's call ${i + 1} (${call.request.model}, ${call.request.messages.length} messages).`,
      );
    }
    return {
      stepNumber: step.stepNumber,
      runId: call.runId,
      request: call.request,
      ...(call.reply ? { reply: call.reply } : {}),
      ...(call.error ? { error: call.error } : { ...(call.reply ? {} : { error: 'no reply in the history yet' }) }),
    };
  });
}

/** What a Temporal run's start input carried for its first call: conversations to build on; its tool results join `texts`. */
async function carriedInto(
  client: Client,
  workflowId: string,
  runId: string,
  texts: Map<string, string>,
): Promise<Map<string, RebuiltConversation>> {
  const carried = carriedConversations((await readRunInput(client, workflowId, runId)).continued);
  for (const [hash, text] of carried.texts) texts.set(hash, text);
  return carried.conversations;
}

/** A history that cannot be rebuilt (cut short, or naming a text it lacks) is a ModelCallHistoryError, like a mismatch. */
function rebuilt<T>(rebuild: () => T): T {
  try {
    return rebuild();
  } catch (err) {
    throw new ModelCallHistoryError(`The history's model calls cannot be rebuilt: ${(err as Error).message}`);
  }
}
