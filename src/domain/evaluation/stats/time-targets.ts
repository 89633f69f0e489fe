import type { CaseResult, EvaluationResult } from '../case-result';
import type { TimeTargetId, TimeTargetSummary } from './evaluation-summary';
import { percentile } from './percentile';

/**
 * Seed 003's optimisation targets (planning under 2 s per goal decomposition, reasoning under
 * 1 s per iteration, simple tasks under 30 s in all), read from the units a variant's own model
 * answered: a replayed case keeps no times (case-result.ts), so recorded replies never count as
 * the model's speed. Pure. These figures measure the machine as much as the model, which is why
 * the regression gate never reads them.
 */

/** The tags that make a case a "simple task" for the 30 s target: the loop dataset's one-tool cases, or a tag of the user's own. */
export const SIMPLE_TASK_TAGS: ReadonlySet<string> = new Set(['simple', 'single-tool']);

interface TimeTarget {
  id: TimeTargetId;
  label: string;
  underMs: number;
  source: string;
  /** One observation of a unit in milliseconds; undefined when the unit does not bear on the target. */
  read(unit: CaseResult, tags: ReadonlySet<string>): number | undefined;
}

export const TIME_TARGETS: readonly TimeTarget[] = [
  {
    id: 'planning',
    label: 'Planning time',
    underMs: 2_000,
    source: "a run's planner time per planner call (plan, repair, re-plan), runs that planned",
    read: (unit) =>
      unit.times && unit.times.planningCalls > 0 ? unit.times.planningMs / unit.times.planningCalls : undefined,
  },
  {
    id: 'reasoning',
    label: 'Reasoning time per iteration',
    underMs: 1_000,
    source: "a run's model time per iteration of its own turns",
    read: (unit) => (unit.times && unit.times.reasoningIterations > 0 ? unit.times.reasoningPerIterationMs : undefined),
  },
  {
    id: 'simple_task',
    label: 'Simple task, whole run',
    underMs: 30_000,
    source: `the run's latency, cases tagged ${[...SIMPLE_TASK_TAGS].join(' or ')}`,
    read: (unit, tags) => (unit.times && [...tags].some((t) => SIMPLE_TASK_TAGS.has(t)) ? unit.latencyMs : undefined),
  },
];

/** Each time target for one variant's units (scored ones only: a failed run's times are partial). */
export function timeTargetSummaries(
  units: readonly CaseResult[],
  cases: EvaluationResult['cases'],
): TimeTargetSummary[] {
  const tagsOf = new Map(cases.map((c) => [c.id, new Set(c.tags)]));
  const scored = units.filter((u) => u.status === 'scored');
  return TIME_TARGETS.map((t) => {
    const values = scored.flatMap((u) => {
      const v = t.read(u, tagsOf.get(u.caseId) ?? new Set());
      return v === undefined ? [] : [v];
    });
    const p50 = percentile(values, 0.5);
    const p95 = percentile(values, 0.95);
    const status = p95 === undefined ? 'not_measured' : p95 < t.underMs ? 'met' : 'not_met';
    return {
      id: t.id,
      label: t.label,
      underMs: t.underMs,
      source: t.source,
      n: values.length,
      ...(p50 !== undefined ? { p50 } : {}),
      ...(p95 !== undefined ? { p95 } : {}),
      status,
    };
  });
}
