import type { CaseResult, EvaluationResult, Score } from '../../src/shared/eval';

/** One unit of an evaluation result, passing unless told otherwise; its scores follow `passed`. */
export function unit(
  caseId: string,
  variant: string,
  repeat: number,
  passed: boolean,
  extra: Partial<CaseResult> = {},
): CaseResult {
  const scores: Score[] = extra.scores ?? [
    {
      scorer: 'termination_accuracy',
      value: passed ? 1 : 0,
      passed,
      why: passed ? 'ended success; expected success' : 'ended max_iterations; expected success',
    },
  ];
  return {
    caseId,
    variant,
    repeat,
    workflowId: `eval-test-0000/${caseId}/${variant}/${repeat}`,
    status: 'scored',
    terminationReason: passed ? 'success' : 'max_iterations',
    iterations: 3,
    maxIterations: 10,
    toolCalls: 2,
    costUsd: 0.01,
    tokens: 1_000,
    latencyMs: 1_000,
    passed,
    ...extra,
    scores,
  };
}

/** An evaluation result around these units; variants and cases are read from them. */
export function evaluation(results: CaseResult[], extra: Partial<EvaluationResult> = {}): EvaluationResult {
  const variants = [...new Set(results.map((r) => r.variant))].map((id) => ({ id }));
  const cases = [...new Set(results.map((r) => r.caseId))].map((id) => ({ id, tags: [] }));
  return {
    schemaVersion: 1,
    name: 'loop',
    dataset: { name: 'loop', sha256: 'a'.repeat(64) },
    variants,
    repeat: Math.max(...results.map((r) => r.repeat)) + 1,
    cases,
    status: 'completed',
    startedAt: '2026-11-25T10:00:00.000Z',
    endedAt: '2026-11-25T10:04:00.000Z',
    spent: {
      costUsd: results.reduce((s, r) => s + r.costUsd, 0),
      tokens: results.reduce((s, r) => s + r.tokens, 0),
    },
    results,
    ...extra,
  };
}
