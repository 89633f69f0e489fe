import type { Client } from '@temporalio/client';
import { ModelReply, modelCallsFromInputs, type ModelCallInput, type ReasoningStep } from '../../shared';
import type { AuditModelCall } from '../audit-report';
import { recordedActivities } from './recorded-activities';

/** The model calls' requests and replies could not be matched with the chain's `llm` steps. */
export class ModelCallHistoryError extends Error {
  override readonly name = 'ModelCallHistoryError';
}

/** One `callModel` activity of a Temporal run: its input as recorded, and how it ended. */
async function recordedCalls(client: Client, workflowId: string, runId: string): Promise<Array<{ runId: string; input: ModelCallInput; reply?: ModelReply; error?: string }>> {
  const recorded = await recordedActivities(client, workflowId, runId, 'callModel');
  return recorded.map((r) => {
    const reply = r.result === undefined ? undefined : ModelReply.safeParse(r.result);
    const error = r.error ?? (reply && !reply.success ? 'the recorded reply does not read as a model reply' : undefined);
    return { runId, input: r.input as ModelCallInput, ...(reply?.success ? { reply: reply.data } : {}), ...(error ? { error } : {}) };
  });
}

/**
 * Every model call of an agent run exactly as sent and answered, paired with the chain's `llm`
 * steps: the n-th `llm` tool_call step is the n-th `callModel` activity across the Temporal runs
 * (oldest first), and each pair must agree on the model and the number of messages, else
 * ModelCallHistoryError (never a silent mismatch). `steps` is the whole, unfiltered chain.
 */
export async function modelCallsOfRun(client: Client, workflowId: string, runIds: readonly string[], steps: readonly ReasoningStep[]): Promise<AuditModelCall[]> {
  const calls: Array<Awaited<ReturnType<typeof recordedCalls>>[number] & { request: ReturnType<typeof modelCallsFromInputs>[number] }> = [];
  for (const runId of runIds) {
    const recorded = await recordedCalls(client, workflowId, runId);
    // References never cross a continue-as-new: each Temporal run rebuilds from its own calls.
    const requests = modelCallsFromInputs(recorded.map((r) => r.input));
    recorded.forEach((r, i) => calls.push({ ...r, request: requests[i]! }));
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
