import { utf8Bytes } from '../../domain/run/payload-size';
import type { EvaluationResult } from '../../domain/evaluation/case-result';

/**
 * Most bytes of JSON the evaluation's result may take: under Temporal's 2 MiB per payload, with
 * room for the payload's own encoding.
 */
export const MAX_EVALUATION_RESULT_BYTES = 2_000_000;

/**
 * The result made to fit MAX_EVALUATION_RESULT_BYTES, so that an evaluation never fails at its
 * very end: first every score's `why` is dropped (each case's scoring workflow keeps them), then
 * the cases' tags. MAX_EVAL_UNITS worst-case results fit after the first step. Pure.
 */
export function fitEvaluationResult(result: EvaluationResult): EvaluationResult {
  const fits = (r: EvaluationResult) => utf8Bytes(JSON.stringify(r)) <= MAX_EVALUATION_RESULT_BYTES;
  if (fits(result)) return result;
  const withoutWhys: EvaluationResult = {
    ...result,
    results: result.results.map((r) => ({ ...r, scores: r.scores.map((s) => ({ ...s, why: '' })) })),
  };
  if (fits(withoutWhys)) return withoutWhys;
  return { ...withoutWhys, cases: withoutWhys.cases.map(({ id }) => ({ id, tags: [] })) };
}
