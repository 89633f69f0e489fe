import { describeKillPoint, type Killer } from './chaos-model';
import { findPlannedCall, type RunPlan } from './chaos-plan';
import type { EffectAttempt, ExternalServiceHooks } from './fake-external-service';

/**
 * The tool side of the kill points, as external-service hooks. `tool`: the planned call's first
 * attempt is applied, its answer held, and the worker killed `delayMs` later. `between … after
 * tool`: the worker is killed `delayMs` after the turn's first call was answered. Idempotency keys
 * are `<workflowId>:<stepId>`, so the run is found from the key.
 */
export function createToolKillHooks(
  plansByWorkflowId: ReadonlyMap<string, RunPlan>,
  killer: Killer,
): ExternalServiceHooks & { fired: ReadonlySet<string> } {
  const fired = new Set<string>();
  const seen = new Set<string>();
  const locate = (attempt: EffectAttempt) => {
    const plan = plansByWorkflowId.get(attempt.key.slice(0, attempt.key.lastIndexOf(':')));
    const at = plan ? findPlannedCall(plan, attempt.tool, attempt.args) : undefined;
    return plan && at ? { plan, ...at } : undefined;
  };
  return {
    fired,
    onEffect(attempt) {
      const found = locate(attempt);
      if (!found || seen.has(attempt.key)) return 'reply';
      seen.add(attempt.key);
      const { plan, turn, call } = found;
      const point = plan.kill;
      if (point.kind !== 'tool' || point.turn !== turn || point.call !== call) return 'reply';
      fired.add(plan.label);
      const generation = killer.generation;
      setTimeout(() => void killer.kill(generation, `${plan.label} ${describeKillPoint(plan)}`), point.delayMs);
      return 'hold';
    },
    onReplied(attempt) {
      const found = locate(attempt);
      // The first answer, applied or deduplicated: another kill may have cut the first attempt short.
      if (!found) return;
      const { plan, turn, call } = found;
      const point = plan.kill;
      if (
        point.kind !== 'between' ||
        point.after !== 'tool' ||
        point.turn !== turn ||
        call !== 0 ||
        fired.has(plan.label)
      )
        return;
      fired.add(plan.label);
      const generation = killer.generation;
      setTimeout(() => void killer.kill(generation, `${plan.label} ${describeKillPoint(plan)}`), point.delayMs);
    },
  };
}
