import { EvalVariant, type CaseResult, type EvaluationResult, type Score } from '../../src/domain/evaluation';

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

/** Text a hostile model or dataset could put in a why: it must show as text, never run or load. */
export const HOSTILE_WHY = `answer was "</td></svg><script>alert('x')</script><img src=https://example.com/x.png onerror=alert(1)> | **bold** [link](javascript:1)`;

const CASES = [
  'weather-single',
  'weather-compare',
  'unknown-tool',
  'failing-tool-recovers',
  'approval-auto',
  'token-budget',
  'max-iterations',
  'sub-agent',
] as const;

/**
 * A realistic evaluation: eight cases × two variants × three repeats, with a judge, failures of
 * several kinds (a flaky case, a broken one, a failed run), a skipped unit, and a hostile why.
 */
export function realisticEvaluation(): EvaluationResult {
  const results: CaseResult[] = [];
  const variants = [
    { id: 'stand-in-a', cost: 0.012, latency: 2_400, judge: 0.93 },
    { id: 'local', cost: 0.0004, latency: 6_100, judge: 0.78 },
  ];
  variants.forEach((v, vi) => {
    CASES.forEach((caseId, ci) => {
      for (let repeat = 0; repeat < 3; repeat++) {
        const seed = (ci * 7 + repeat * 3 + vi * 5) % 10;
        // The local model is flaky on comparisons and always misses the sub-agent case.
        const flaky = vi === 1 && caseId === 'weather-compare' && repeat !== 1;
        const broken = vi === 1 && caseId === 'sub-agent';
        const passed = !flaky && !broken;
        const judge = Math.min(1, Math.max(0, v.judge + (seed - 5) / 40));
        const scores: Score[] = [
          {
            scorer: 'termination_accuracy',
            value: broken ? 0 : 1,
            passed: !broken,
            why: broken ? 'ended max_iterations; expected success' : 'ended success; expected success',
          },
          {
            scorer: 'answer_match',
            value: flaky ? 0 : 1,
            passed: !flaky,
            why: flaky ? HOSTILE_WHY : 'the answer contains "Paris"',
          },
          {
            scorer: 'recovery',
            value: 1,
            passed: true,
            why: 'ended success after 1 failed call',
          },
          {
            scorer: 'judge',
            value: judge,
            passed: judge >= 0.9,
            why: `coherent reasoning, graded ${judge.toFixed(2)}`,
          },
        ].filter((s) => s.scorer !== 'recovery' || caseId === 'failing-tool-recovers' || caseId === 'unknown-tool');
        const skipped = vi === 1 && caseId === 'max-iterations' && repeat === 2;
        results.push({
          caseId,
          variant: v.id,
          repeat,
          workflowId: `eval-loop-3f9a21c4/${caseId}/${v.id}/${repeat}`,
          status: skipped ? 'skipped' : 'scored',
          ...(skipped ? {} : { terminationReason: broken ? 'max_iterations' : 'success' }),
          iterations: skipped ? 0 : broken ? 10 : 2 + (seed % 4),
          maxIterations: 10,
          toolCalls: skipped ? 0 : 1 + (seed % 3),
          costUsd: skipped ? 0 : v.cost * (0.6 + seed / 10),
          tokens: skipped ? 0 : Math.round(1_800 + seed * 210),
          latencyMs: skipped ? 0 : Math.round(v.latency * (0.5 + seed / 8)),
          scores: skipped ? [] : scores,
          passed: skipped ? false : passed,
          ...(skipped ? { note: 'budget spent before this run started' } : {}),
        });
      }
    });
  });
  return {
    schemaVersion: 1,
    name: 'loop',
    dataset: { name: 'loop', sha256: '3f9a21c4d2b7e8f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718' },
    variants: [
      EvalVariant.parse({ id: 'stand-in-a', model: { provider: 'scripted', model: 'stand-in-a' } }),
      EvalVariant.parse({ id: 'local', model: { provider: 'scripted', model: 'stand-in-b' }, strategy: 'react-text' }),
    ],
    repeat: 3,
    cases: CASES.map((id) => ({
      id,
      tags: id.startsWith('weather') ? ['weather'] : id === 'sub-agent' ? ['delegation'] : [],
    })),
    status: 'budget_spent',
    startedAt: '2026-11-25T10:00:00.000Z',
    endedAt: '2026-11-25T10:07:31.000Z',
    spent: {
      costUsd: results.reduce((s, r) => s + r.costUsd, 0),
      tokens: results.reduce((s, r) => s + r.tokens, 0),
    },
    results,
    judge: { provider: 'scripted', model: 'stand-in-judge' },
  };
}
