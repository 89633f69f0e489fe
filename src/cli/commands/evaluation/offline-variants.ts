import type { EvalVariant, JudgeSettings } from '../../../domain/evaluation';
import type { ModelSettings } from '../../../domain';
import { OFFLINE_MODEL_NAME } from '../../../offline/offline-model';

/** The provider name the CLI's workers register the offline model under (its `name`). */
export const OFFLINE_PROVIDER = 'offline';

/**
 * Whether this process's worker, with no ANTHROPIC_API_KEY, answers a model's calls with the
 * offline model (model-setup.ts puts it in the `anthropic` slot): an Anthropic model reached
 * through no endpoint of its own (an endpoint brings its own key).
 */
const answeredOffline = (model: ModelSettings | undefined): model is ModelSettings =>
  model !== undefined && model.provider === 'anthropic' && model.endpoints === undefined;

/** The settings asked for, now asking the offline model by its own name: the runs record what answers. */
const offlineSettings = (model: ModelSettings): ModelSettings => ({
  ...model,
  provider: OFFLINE_PROVIDER,
  model: OFFLINE_MODEL_NAME,
  fallbacks: [],
});

/**
 * An evaluation's variants as this process's keyless worker will answer them: each Anthropic
 * variant asks the offline model by name and is named after it (`offline-model`, or
 * `<agent>.offline-model`; an agent's own name stays), so results, reports and baselines stand
 * under the model that produced them, not the Claude model configured. Variants that became the
 * same (two Claude models, both answered offline) are kept once. Pure; `merged` names the dropped.
 */
export function offlineVariants(variants: readonly EvalVariant[]): { variants: EvalVariant[]; merged: string[] } {
  const kept = new Map<string, EvalVariant>();
  const merged: string[] = [];
  for (const v of variants) {
    const next = answeredOffline(v.model) ? { ...v, id: offlineId(v), model: offlineSettings(v.model) } : v;
    if (kept.has(next.id)) merged.push(v.id);
    else kept.set(next.id, next);
  }
  return { variants: [...kept.values()], merged };
}

/** `offline-model`; an agent's variant keeps the agent's name, and `<agent>.<model>` becomes `<agent>.offline-model`. */
function offlineId(v: EvalVariant): string {
  if (v.agent === undefined) return OFFLINE_MODEL_NAME;
  return v.id === v.agent ? v.id : `${v.agent}.${OFFLINE_MODEL_NAME}`;
}

/** The judge as the keyless worker answers it: the offline model, by its own name. */
export const offlineJudge = (judge: JudgeSettings): JudgeSettings =>
  answeredOffline(judge.model) ? { ...judge, model: offlineSettings(judge.model) } : judge;
