import type { Client } from '@temporalio/client';
import { recordedActivities } from '../history/recorded-activities';
import {
  chainPage,
  readShortened,
  ToolInvocation,
  ToolOutput,
  type ChainPage,
  type ReasoningChain,
  type ReasoningStep,
  type ShortenedText,
} from '../../domain';

/** A step whose observation the result named instead of repeating, and where to find it. */
interface Named {
  stepId: string;
  marker: ShortenedText;
  /** The `runTool` activity's idempotency key: the workflow id and its call's step id. */
  key: string;
}

/**
 * `chain` (a finished run's result, not yet in any role's view) with the observations its result
 * named instead of repeating ("shortened in the result, in full in run R") put back from run R's
 * history: each is the result of the `runTool` activity its call scheduled, and is taken only when
 * its text has the length and the head the marker kept. Only the steps of `page` are looked at,
 * with one history fetch per run named (normally one); with none named, no fetch at all. A step
 * that cannot be put back (its history gone past retention, a key this client's codec lacks) stays
 * as the result has it, marker and all.
 */
export async function restoreObservations(
  client: Client,
  workflowId: string,
  chain: ReasoningChain,
  page?: ChainPage,
): Promise<ReasoningChain> {
  const named = namedSteps(workflowId, chain, page);
  if (named.length === 0) return chain;
  const restored = new Map<string, unknown>();
  for (const runId of new Set(named.map((n) => n.marker.runId))) {
    const wanted = named.filter((n) => n.marker.runId === runId);
    const results = await toolResults(client, workflowId, runId).catch(() => new Map<string, unknown>());
    for (const n of wanted) {
      const full = results.get(n.key);
      if (full !== undefined && matches(full, n.marker)) restored.set(n.stepId, full);
    }
  }
  if (restored.size === 0) return chain;
  const steps = chain.steps.map((step) =>
    step.type === 'tool_result' && restored.has(step.stepId)
      ? { ...step, toolResult: { ...step.toolResult, result: restored.get(step.stepId) } }
      : step,
  );
  return { ...chain, steps };
}

/** The page's steps whose observation carries a result's marker, with their activity's key. */
function namedSteps(workflowId: string, chain: ReasoningChain, page?: ChainPage): Named[] {
  const inPage = chainPage(chain, page).steps.filter(isNamedResult);
  if (inPage.length === 0) return [];
  const callSteps = new Map(
    chain.steps.flatMap((s) => (s.type === 'tool_call' ? [[s.toolCall.correlationId, s.stepId] as const] : [])),
  );
  return inPage.flatMap((step) => {
    const marker = readShortened(step.toolResult.result as string);
    const callStep = callSteps.get(step.toolResult.correlationId);
    return marker && callStep ? [{ stepId: step.stepId, marker, key: `${workflowId}:${callStep}` }] : [];
  });
}

function isNamedResult(step: ReasoningStep): step is Extract<ReasoningStep, { type: 'tool_result' }> {
  return (
    step.type === 'tool_result' &&
    typeof step.toolResult.result === 'string' &&
    readShortened(step.toolResult.result)?.where === 'in the result'
  );
}

/** The full text is the one the marker describes: as long, and starting with the head it kept. */
function matches(full: unknown, marker: ShortenedText): boolean {
  const text = typeof full === 'string' ? full : JSON.stringify(full ?? null);
  return text.length === marker.length && text.startsWith(marker.head);
}

/**
 * The results of run `runId`'s `runTool` activities by idempotency key (the last completed one of
 * a key, as a tool that asked for input ran again), read as the audit export reads them.
 */
async function toolResults(client: Client, workflowId: string, runId: string): Promise<Map<string, unknown>> {
  const results = new Map<string, unknown>();
  for (const activity of await recordedActivities(client, workflowId, runId, 'runTool')) {
    const invocation = ToolInvocation.safeParse(activity.input);
    const output = ToolOutput.safeParse(activity.result);
    if (invocation.success && output.success && output.data.result !== undefined)
      results.set(invocation.data.idempotencyKey, output.data.result);
  }
  return results;
}
