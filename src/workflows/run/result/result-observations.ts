import type { AgentResult, ReasoningStep } from '../../../domain';
import { shortenedText } from '../../../domain/text/shortened-text';
import { CARRIED_RESULT_CHARS } from '../handover/carry-over';

/**
 * The result with each long observation that a `runTool` activity of this Temporal run returned
 * (`inHistory`, by step id) cut to CARRIED_RESULT_CHARS and marked "in full in run `runId`": the
 * activity's result already holds it in this run's history, so the result does not record it a
 * second time. Readers put it back from there (client/chain/restore-observations.ts). Only a cut that
 * makes the text shorter is made; with none, `result` itself comes back. Pure and deterministic.
 */
export function observationsByReference(
  result: AgentResult,
  runId: string,
  inHistory: ReadonlySet<string>,
): AgentResult {
  let cut = false;
  const steps = result.chain.steps.map((step) => {
    const named = inHistory.has(step.stepId) ? byReference(step, runId) : step;
    cut ||= named !== step;
    return named;
  });
  return cut ? { ...result, chain: { ...result.chain, steps } } : result;
}

function byReference(step: ReasoningStep, runId: string): ReasoningStep {
  if (step.type !== 'tool_result') return step;
  const { result } = step.toolResult;
  const text = typeof result === 'string' ? result : JSON.stringify(result ?? null);
  // Cut afresh even when the tool's own text ends like a marker: this is the activity's text, in full.
  const cut = shortenedText({
    head: text.slice(0, CARRIED_RESULT_CHARS),
    length: text.length,
    where: 'in the result',
    runId,
  });
  return cut.length < text.length ? { ...step, toolResult: { ...step.toolResult, result: cut } } : step;
}
