import type { ToolType } from '../chain/chain';
import type { ViewerPreferences } from './viewer-preferences';
import { StepKind, type VisibilityRules } from './visibility-policy';

/** Tool types journey 5 calls "external" (systems outside the agent) and "internal". */
const EXTERNAL_TYPES: readonly ToolType[] = ['external', 'database', 'file_system'];
const INTERNAL_TYPES: readonly ToolType[] = ['skill', 'custom'];

/**
 * A viewer's preferences as rules of the same shape as the policy's layers, so they can only
 * narrow like any other layer: an unticked box hides (final reasoning: shows its summary, the
 * answer stays in the result); "summaries only" caps every kind at summary.
 */
export function preferenceCaps(preferences: ViewerPreferences): VisibilityRules {
  const rules: VisibilityRules = { steps: {}, tools: {}, toolTypes: {} };
  if (preferences.summariesOnly) for (const kind of StepKind.options) rules.steps[kind] = 'summary';
  if (!preferences.thinking) rules.steps.thinking = 'hidden';
  if (!preferences.finalReasoning && rules.steps.synthesis === undefined) rules.steps.synthesis = 'summary';
  if (!preferences.externalCalls)
    for (const type of EXTERNAL_TYPES) rules.toolTypes[type] = { call: 'hidden', result: 'hidden' };
  if (!preferences.internalCalls) {
    for (const type of INTERNAL_TYPES) rules.toolTypes[type] = { call: 'hidden', result: 'hidden' };
    rules.steps.model_call = 'hidden';
  }
  return rules;
}
