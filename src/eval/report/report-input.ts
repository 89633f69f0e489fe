import type { CaseResult, EvaluationResult } from '../../domain/evaluation/case-result';
import type { GateResult } from '../../domain/evaluation/gate/gate-result';
import type { EvaluationSummary } from '../../domain/evaluation/stats/evaluation-summary';

/** What a report is drawn from. */
export interface ReportInput {
  result: EvaluationResult;
  summary: EvaluationSummary;
  /** The regression gate's verdict, when a baseline was given. */
  gate?: GateResult;
  /** A `thoughtline serve` address for links to the viewer (THOUGHTLINE_SERVER_URL). */
  viewerBase?: string;
}

/** At most this many failing units are listed; the rest are counted. */
export const MAX_LISTED_FAILURES = 200;

/** Units that ran and did not pass, in dataset order, then by variant and repeat. */
export function failingUnits(result: EvaluationResult): CaseResult[] {
  const order = new Map(result.cases.map((c, i) => [c.id, i]));
  const variants = new Map(result.variants.map((v, i) => [v.id, i]));
  return result.results
    .filter((u) => u.status !== 'skipped' && !u.passed)
    .sort(
      (a, b) =>
        (order.get(a.caseId) ?? 0) - (order.get(b.caseId) ?? 0) ||
        (variants.get(a.variant) ?? 0) - (variants.get(b.variant) ?? 0) ||
        a.repeat - b.repeat,
    );
}

/** The variant's model (provider/model), agent and strategy, as one line; '' for the run's defaults. */
export function variantDescription(result: EvaluationResult, id: string): string {
  const v = result.variants.find((x) => x.id === id);
  if (!v) return '';
  return [
    v.model ? `${v.model.provider ? `${v.model.provider}/` : ''}${v.model.model ?? ''}` : '',
    v.agent ? `agent ${v.agent}` : '',
    v.strategy ? `strategy ${v.strategy}` : '',
  ]
    .filter(Boolean)
    .join(', ');
}
