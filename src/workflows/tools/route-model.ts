import { chooseByComplexity, type Plan, type RoutedTask } from '../../domain';
import type { ValidCall } from '../core/model-exchange';

const RANK = { low: 0, medium: 1, high: 2 } as const;

/**
 * The model of an `llm` tool call that named none (no `model`, no `models`), chosen here in the
 * workflow from the tool's spec (tiers and prices) and the plan task in progress, so the choice
 * and its reason are on the call step and replay the same: no activity, no clock. A call that
 * named its model, a tool without model choices (a spec recorded before them), and every other
 * tool pass unchanged. Pure.
 */
export function routeModel(check: ValidCall, plan: Plan | undefined, routing: boolean): ValidCall {
  const { spec, args } = check;
  const choices = spec.modelChoices;
  if (spec.type !== 'llm' || !choices?.[0] || args['model'] !== undefined || args['models'] !== undefined) return check;
  const route = chooseByComplexity([choices[0], ...choices.slice(1)], taskInProgress(plan), routing);
  return { spec, args: { ...args, model: route.alias }, routed: route.reason };
}

/**
 * The task a call is made for: the one in progress, or of several the most demanding (a task
 * without an estimate counts as more than `high`, so the call falls to the tool's default).
 */
function taskInProgress(plan: Plan | undefined): RoutedTask | undefined {
  const rank = (t: RoutedTask) => (t.complexity === undefined ? 3 : RANK[t.complexity]);
  const current = (plan?.tasks ?? []).filter((t) => t.status === 'in_progress');
  return current.reduce<RoutedTask | undefined>((most, t) => (!most || rank(t) > rank(most) ? t : most), undefined);
}
