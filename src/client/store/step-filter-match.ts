import type { ReasoningChain, ReasoningStep } from '../../domain';
import { stepText, type StepFilter } from '../../domain/store';

/** Whether `step`'s text (as given: the caller's view of it) contains `needle`, ignoring case. */
export const textMatches = (step: ReasoningStep, needle: string): boolean =>
  stepText(step).toLowerCase().includes(needle.toLowerCase());

/**
 * Whether a step passes `filter`. `toolOf` names the tool of a result's call (results do not
 * carry it). Steps are compared as the caller's view shows them, so a text only another view
 * shows never matches.
 */
export function matchesStepFilter(
  step: ReasoningStep,
  filter: StepFilter,
  toolOf: (correlationId: string) => string | undefined,
): boolean {
  if (filter.types && !filter.types.includes(step.type)) return false;
  if (filter.tool !== undefined) {
    const tool =
      step.type === 'tool_call'
        ? step.toolCall.toolName
        : step.type === 'tool_result'
          ? toolOf(step.toolResult.correlationId)
          : undefined;
    if (tool !== filter.tool) return false;
  }
  const at = Date.parse(step.timestamp);
  if (filter.from !== undefined && !(at >= Date.parse(filter.from))) return false;
  if (filter.to !== undefined && !(at <= Date.parse(filter.to))) return false;
  return filter.text === undefined || textMatches(step, filter.text);
}

/** The filter with only the fields given, or undefined when it narrows by nothing. */
export function givenFilter(filter: StepFilter | undefined): StepFilter | undefined {
  if (filter === undefined) return undefined;
  const given = Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
  return Object.keys(given).length > 0 ? (given as StepFilter) : undefined;
}

/** A chain (already in the caller's view) with only the steps that pass `filter`. */
export function filterChainSteps(chain: ReasoningChain, given: StepFilter | undefined): ReasoningChain {
  const filter = givenFilter(given);
  if (!filter) return chain;
  const tools = new Map<string, string>();
  for (const step of chain.steps)
    if (step.type === 'tool_call') tools.set(step.toolCall.correlationId, step.toolCall.toolName);
  return { ...chain, steps: chain.steps.filter((step) => matchesStepFilter(step, filter, (id) => tools.get(id))) };
}
