import { describe, expect, it } from 'vitest';
import {
  EvalCase,
  EvalVariant,
  EvaluationInput,
  MAX_EVAL_UNITS,
  MAX_SCORE_WHY_CHARS,
  type CaseResult,
  type EvaluationResult,
} from '../../../src/domain/evaluation';
import { utf8Bytes } from '../../../src/domain/run/payload-size';
import { caseAgentInput, caseBudgetLimits } from '../../../src/workflows/eval/case-agent-input';
import { EvalBudget } from '../../../src/workflows/eval/eval-budget';
import { evaluationDetails } from '../../../src/workflows/eval/evaluation-details';
import { fitCaseResult, MAX_CASE_RESULT_BYTES } from '../../../src/workflows/eval/fit-case-result';
import { fitEvaluationResult, MAX_EVALUATION_RESULT_BYTES } from '../../../src/workflows/eval/fit-evaluation-result';
import { planUnits } from '../../../src/workflows/eval/unit-plan';

const id64 = (c: string) => c.repeat(64);
const bytes = (value: unknown) => utf8Bytes(JSON.stringify(value));

/**
 * A result with every field at its longest: 64-character ids, a 100-character evaluation id,
 * `scores` many scores with 200-character whys (two-byte characters) named `name(i)`.
 */
function worstCaseResult(scores: number, name = (i: number) => `${i}`.padEnd(64, 's')): CaseResult {
  return {
    caseId: id64('c'),
    variant: id64('v'),
    repeat: 99,
    workflowId: `${'e'.repeat(100)}/${id64('c')}/${id64('v')}/99`,
    status: 'scored',
    terminationReason: 'max_iterations',
    iterations: 1_000,
    maxIterations: 1_000,
    toolCalls: 123_456,
    costUsd: 12345.123456789,
    tokens: 987_654_321,
    latencyMs: 123456789.123,
    times: {
      planningMs: 123456789.123,
      planningCalls: 1_000,
      reasoningPerIterationMs: 123456789,
      reasoningIterations: 1_000,
    },
    scores: Array.from({ length: scores }, (_, i) => ({
      scorer: name(i),
      value: 0.123456789,
      passed: false,
      why: 'é'.repeat(MAX_SCORE_WHY_CHARS),
    })),
    passed: false,
    // Only a result without scores (failed, skipped) has a note.
    ...(scores === 0 ? { note: 'n'.repeat(MAX_SCORE_WHY_CHARS) } : {}),
  };
}

describe('a unit result stays under 1 KB', () => {
  it('a typical result is untouched and a few hundred bytes', () => {
    const typical: CaseResult = {
      ...worstCaseResult(0),
      caseId: 'weather-berlin',
      variant: 'sonnet',
      workflowId: 'eval-1/weather-berlin/sonnet/0',
      scores: [{ scorer: 'termination_accuracy', value: 1, passed: true, why: 'ended success; expected success' }],
      note: undefined,
      times: { planningMs: 1_250, planningCalls: 1, reasoningPerIterationMs: 830, reasoningIterations: 4 },
    };
    expect(fitCaseResult(typical)).toBe(typical);
    expect(bytes(typical)).toBeLessThan(600);
  });

  it('the worst case (every field at its longest, 1 to 60 scores) fits; whys are cut before scores are left out', () => {
    for (const n of [1, 4, 10, 30, 60]) {
      const fitted = fitCaseResult(worstCaseResult(n));
      expect(bytes(fitted), `${n} scores`).toBeLessThanOrEqual(MAX_CASE_RESULT_BYTES);
      expect(CaseResultShape(fitted)).toBe(true);
    }
    expect(bytes(fitCaseResult(worstCaseResult(0)))).toBeLessThanOrEqual(MAX_CASE_RESULT_BYTES);
    // Four scores with built-in-length names: all kept, each why cut to its share.
    const four = fitCaseResult(worstCaseResult(4, (i) => `answer_match_${i}`.padEnd(20, '_')));
    expect(four.scores).toHaveLength(4);
    expect(four.scores.every((s) => s.why.endsWith('…'))).toBe(true);
    // Its times were left out first: they serve the time targets, the scores decide the unit.
    expect(four.times).toBeUndefined();
    expect(fitCaseResult(worstCaseResult(1)).times).toBeDefined();
    const sixty = fitCaseResult(worstCaseResult(60));
    expect(sixty.scores.length).toBeLessThan(60);
    expect(sixty.note).toMatch(/^\d+ of 60 scores left out here to stay under 1 KB/);
  });

  it(`${MAX_EVAL_UNITS} worst-case results, with a case list and 20 variants, fit the 2 MiB payload once fitted`, () => {
    const results = Array.from({ length: MAX_EVAL_UNITS }, () => fitCaseResult(worstCaseResult(30)));
    const result: EvaluationResult = {
      schemaVersion: 1,
      name: 'n'.repeat(200),
      dataset: { name: 'd'.repeat(200), sha256: 'f'.repeat(64) },
      variants: Array.from({ length: 20 }, (_, i) =>
        EvalVariant.parse({ id: `${i}`.padEnd(64, 'v'), model: { provider: 'anthropic', model: 'm'.repeat(100) } }),
      ),
      repeat: 1,
      cases: Array.from({ length: MAX_EVAL_UNITS }, (_, i) => ({
        id: `${i}`.padEnd(64, 'c'),
        tags: Array.from({ length: 20 }, () => 't'.repeat(64)),
      })),
      status: 'completed',
      startedAt: new Date(0).toISOString(),
      endedAt: new Date(0).toISOString(),
      spent: { costUsd: 1, tokens: 1 },
      results,
    };
    expect(bytes(result)).toBeGreaterThan(MAX_EVALUATION_RESULT_BYTES);
    const fitted = fitEvaluationResult(result);
    expect(bytes(fitted)).toBeLessThanOrEqual(MAX_EVALUATION_RESULT_BYTES);
    expect(MAX_EVALUATION_RESULT_BYTES).toBeLessThan(2 * 1024 * 1024);
    expect(fitted.results).toHaveLength(MAX_EVAL_UNITS);
  });
});

/** Every score of the fitted result still has its fields, why within the contract's limit. */
function CaseResultShape(r: CaseResult): boolean {
  return r.scores.every((s) => typeof s.scorer === 'string' && s.why.length <= MAX_SCORE_WHY_CHARS);
}

describe('the evaluation budget', () => {
  it('grants each run the smaller of its case limit and its share of what is left; in-flight grants never exceed the total', () => {
    const budget = new EvalBudget({ costUsd: 1, tokens: 10_000 });
    const a = budget.claim(undefined, 4, 0);
    const b = budget.claim({ costBudgetUsd: 0.1 }, 3, 1);
    const c = budget.claim(undefined, 2, 2);
    const d = budget.claim(undefined, 1, 3);
    const grants = [a, b, c, d].map((x) => ('grant' in x ? x.grant : undefined));
    const rounded = grants.map((g) => ({ ...g, costBudgetUsd: Math.round(g!.costBudgetUsd! * 1e9) / 1e9 }));
    expect(rounded).toEqual([
      { costBudgetUsd: 0.25, tokenBudget: 2_500 },
      { costBudgetUsd: 0.1, tokenBudget: 2_500 },
      { costBudgetUsd: 0.325, tokenBudget: 2_500 },
      { costBudgetUsd: 0.325, tokenBudget: 2_500 },
    ]);
    const reserved = grants.reduce((sum, g) => sum + g!.costBudgetUsd!, 0);
    expect(reserved).toBeCloseTo(1);
    // Nothing left while all four hold their grants: the next waits.
    expect(budget.claim(undefined, 1, 4)).toEqual({ wait: true });
    // One reports a small spend: the rest of its grant comes back for the next run.
    budget.settle(grants[0]!, { costUsd: 0.05, tokens: 500 });
    const next = budget.claim(undefined, 1, 3) as { grant: { costBudgetUsd: number; tokenBudget: number } };
    expect(next.grant.costBudgetUsd).toBeCloseTo(0.2);
    expect(next.grant.tokenBudget).toBe(2_000);
  });

  it('a run that never reports is charged its whole grant; once nothing is left and nothing runs, the budget is spent', () => {
    const budget = new EvalBudget({ costUsd: 0.02 });
    const first = budget.claim({ costBudgetUsd: 0.5 }, 1, 0);
    expect(first).toEqual({ grant: { costBudgetUsd: 0.02 } });
    budget.settle((first as { grant: object }).grant, undefined);
    expect(budget.spent).toEqual({ costUsd: 0.02, tokens: 0 });
    expect(budget.claim(undefined, 1, 0)).toEqual({ spent: true });
  });

  it('a wide concurrency still starts runs with at least 1% of the total each', () => {
    const budget = new EvalBudget({ costUsd: 1, tokens: 1_000 });
    expect(budget.claim(undefined, 256, 0)).toEqual({ grant: { costBudgetUsd: 0.01, tokenBudget: 10 } });
  });

  it('without a budget every run gets its own case limits only', () => {
    const budget = new EvalBudget(undefined);
    expect(budget.claim({ tokenBudget: 900 }, 2, 0)).toEqual({ grant: { tokenBudget: 900 } });
    expect(budget.claim(undefined, 2, 0)).toEqual({ grant: {} });
  });
});

describe('units and their agent input', () => {
  it('runs repeat by repeat, case by case, variant by variant', () => {
    const input = EvaluationInput.parse({
      name: 'e',
      dataset: { name: 'd', sha256: 'x' },
      cases: [
        { id: 'a', task: 'A' },
        { id: 'b', task: 'B' },
      ],
      variants: [{ id: 'v1' }, { id: 'v2' }],
      repeat: 2,
    });
    expect(planUnits(input)).toEqual([
      [0, 0, 0],
      [0, 1, 0],
      [1, 0, 0],
      [1, 1, 0],
      [0, 0, 1],
      [0, 1, 1],
      [1, 0, 1],
      [1, 1, 1],
    ]);
  });

  it('layers base input, variant, case (context before the task, limits, input) and the grant', () => {
    const c = EvalCase.parse({
      id: 'a',
      task: 'Add the numbers.',
      context: 'The numbers are 2 and 3.',
      limits: { maxIterations: 4, costBudgetUsd: 0.5, runTimeoutMs: 9_000 },
      input: { maxParallelToolCalls: 1, strategy: 'react-text' },
    });
    const input = caseAgentInput(
      { maxParallelToolCalls: 8, allowQuestions: false, model: { provider: 'scripted', model: 'base' } },
      {
        id: 'v',
        model: EvalVariant.parse({ id: 'v', model: { provider: 'scripted', model: 'variant' } }).model!,
        strategy: 'native',
      },
      c,
      { costBudgetUsd: 0.2 },
    );
    expect(input).toMatchObject({
      task: 'Context:\nThe numbers are 2 and 3.\n\nTask:\nAdd the numbers.',
      model: { provider: 'scripted', model: 'variant' },
      strategy: 'react-text',
      maxParallelToolCalls: 1,
      allowQuestions: false,
      maxIterations: 4,
      runTimeoutMs: 9_000,
      costBudgetUsd: 0.2,
    });
  });
});

describe("the evaluation's Web UI details", () => {
  it('show the counts and the spend against the budget, the name escaped', () => {
    const details = evaluationDetails(
      { name: 'prompt *v2*', budget: { costUsd: 5 }, concurrency: 4 },
      { total: 10, done: 3, running: 2, skipped: 1, passed: 2, spent: { costUsd: 0.5, tokens: 1200 } },
      'running',
    );
    expect(details).toBe(
      [
        '**Evaluation prompt \\*v2\\***: running',
        '',
        '| done | running | skipped | passed | total |',
        '| ---: | ---: | ---: | ---: | ---: |',
        '| 3 | 2 | 1 | 2 | 10 |',
        '',
        'Spent $0.5000 of $5, 1200 tokens; at most 4 runs at once.',
      ].join('\n'),
    );
  });
});

describe("a run's own limits under the budget", () => {
  it("are the case's limits, else its input's, else the base input's", () => {
    const c = (init: object) => EvalCase.parse({ id: 'a', task: 't', ...init });
    const base = { costBudgetUsd: 3, tokenBudget: 9_000 };
    expect(caseBudgetLimits(base, c({ limits: { costBudgetUsd: 1 }, input: { costBudgetUsd: 2 } }))).toEqual({
      costBudgetUsd: 1,
      tokenBudget: 9_000,
    });
    expect(caseBudgetLimits(base, c({ input: { costBudgetUsd: 2 } }))).toEqual({
      costBudgetUsd: 2,
      tokenBudget: 9_000,
    });
    expect(caseBudgetLimits(undefined, c({}))).toEqual({});
  });
});
