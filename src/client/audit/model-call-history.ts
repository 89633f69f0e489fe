import type { Client } from '@temporalio/client';
import { lastConversations, ModelReply, modelCallsFromInputs, observationText, textHash, type ModelCallInput, type ReasoningChain, type ReasoningStep, type RebuiltConversation } from '../../shared';
import type { AuditModelCall } from '../audit-report';
import { recordedActivities } from './recorded-activities';

/** The model calls' requests and replies could not be matched with the chain's `llm` steps. */
export class ModelCallHistoryError extends Error {
  override readonly name = 'ModelCallHistoryError';
}

/**
 * Why a chain whose first steps are gone from the server (`unavailable`) cannot have its model
 * calls rebuilt: each call builds on the conversation the one before sent, back to the first.
 */
export function modelCallsGoneReason({ runId, throughStep }: NonNullable<ReasoningChain['unavailable']>): string {
  return `Steps 1–${throughStep} are no longer on the Temporal server (run ${runId} is past the namespace's retention or deleted), and every model call builds on the conversation of the ones before it: the calls cannot be rebuilt.`;
}

/**
 * The `callModel` activities of a Temporal run (each input as recorded, and how it ended), and
 * the texts its tools returned, by hash: the calls name those instead of recording them again.
 */
async function recordedCalls(client: Client, workflowId: string, runId: string) {
  const recorded = await recordedActivities(client, workflowId, runId, ['callModel', 'runTool']);
  const texts = new Map<string, string>();
  for (const r of recorded) {
    const output = r.type === 'runTool' && r.result !== null && typeof r.result === 'object' ? (r.result as { result?: unknown }).result : undefined;
    const text = output === undefined ? undefined : observationText(output);
    if (typeof text === 'string') texts.set(textHash(text), text);
  }
  const calls = recorded
    .filter((r) => r.type === 'callModel')
    .map((r): { runId: string; input: ModelCallInput; reply?: ModelReply; error?: string } => {
      const reply = r.result === undefined ? undefined : ModelReply.safeParse(r.result);
      const error = r.error ?? (reply && !reply.success ? 'the recorded reply does not read as a model reply' : undefined);
      return { runId, input: r.input as ModelCallInput, ...(reply?.success ? { reply: reply.data } : {}), ...(error ? { error } : {}) };
    });
  return { calls, texts };
}

/**
 * Every model call of an agent run exactly as sent and answered, paired with the chain's `llm`
 * steps: the n-th `llm` tool_call step is the n-th `callModel` activity across the Temporal runs
 * (oldest first), and each pair must agree on the model and the number of messages, else
 * ModelCallHistoryError (never a silent mismatch). `steps` is the whole, unfiltered chain.
 */
export async function modelCallsOfRun(client: Client, workflowId: string, runIds: readonly string[], steps: readonly ReasoningStep[]): Promise<AuditModelCall[]> {
  const calls: Array<Awaited<ReturnType<typeof recordedCalls>>['calls'][number] & { request: ReturnType<typeof modelCallsFromInputs>[number] }> = [];
  // A handover's first call names tool results earlier Temporal runs returned, and builds on the conversation the run before it sent last.
  const texts = new Map<string, string>();
  let before = new Map<string, RebuiltConversation>();
  for (const runId of runIds) {
    const recorded = await recordedCalls(client, workflowId, runId);
    for (const [hash, text] of recorded.texts) texts.set(hash, text);
    const requests = rebuilt(() => modelCallsFromInputs(recorded.calls.map((r) => r.input), (hash) => texts.get(hash), before));
    before = lastConversations(requests);
    recorded.calls.forEach((r, i) => calls.push({ ...r, request: requests[i]! }));
  }
  const llmSteps = steps.filter((s): s is Extract<ReasoningStep, { type: 'tool_call' }> => s.type === 'tool_call' && s.toolCall.toolType === 'llm');
  if (llmSteps.length !== calls.length) {
    throw new ModelCallHistoryError(`The chain has ${llmSteps.length} model call step(s) but the history ${calls.length} model call(s); the chain may be incomplete.`);
  }
  return llmSteps.map((step, i) => {
    const call = calls[i]!;
    const counted = step.toolCall.arguments.messages;
    if (call.request.model !== step.toolCall.toolName || (typeof counted === 'number' && counted !== call.request.messages.length)) {
      throw new ModelCallHistoryError(`Model call step ${step.stepNumber} (${step.toolCall.toolName}) does not match the history's call ${i + 1} (${call.request.model}, ${call.request.messages.length} messages).`);
    }
    return { stepNumber: step.stepNumber, runId: call.runId, request: call.request, ...(call.reply ? { reply: call.reply } : {}), ...(call.error ? { error: call.error } : { ...(call.reply ? {} : { error: 'no reply in the history yet' }) }) };
  });
}

/** A history that cannot be rebuilt (cut short, or naming a text it lacks) is a ModelCallHistoryError, like a mismatch. */
function rebuilt<T>(rebuild: () => T): T {
  try {
    return rebuild();
  } catch (err) {
    throw new ModelCallHistoryError(`The history's model calls cannot be rebuilt: ${(err as Error).message}`);
  }
}
