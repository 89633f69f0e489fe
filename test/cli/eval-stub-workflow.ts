import { setHandler, sleep } from '@temporalio/workflow';
import type { CaseResult, EvaluationInput, EvaluationProgress, EvaluationResult } from '../../src/domain/evaluation';
import { evaluationProgressQuery } from '../../src/workflows/eval/eval-messages';

/**
 * A stand-in for the engine's evaluationWorkflow, for the CLI's own tests: it answers the progress
 * query, "runs" each unit with a short timer, and fails every case whose id contains "broken".
 */
export async function evaluationWorkflow(input: EvaluationInput): Promise<EvaluationResult> {
  const total = input.cases.length * input.variants.length * input.repeat;
  const progress: EvaluationProgress = {
    total,
    done: 0,
    running: 0,
    skipped: 0,
    passed: 0,
    spent: { costUsd: 0, tokens: 0 },
  };
  setHandler(evaluationProgressQuery, () => progress);
  const results: CaseResult[] = [];
  for (const variant of input.variants)
    for (const c of input.cases)
      for (let repeat = 0; repeat < input.repeat; repeat++) {
        await sleep(400);
        const passed = !c.id.includes('broken');
        results.push({
          caseId: c.id,
          variant: variant.id,
          repeat,
          workflowId: `stub/${c.id}/${variant.id}/${repeat}`,
          status: 'scored',
          terminationReason: passed ? 'success' : 'max_iterations',
          iterations: passed ? 2 : 10,
          maxIterations: 10,
          toolCalls: 1,
          costUsd: 0.001,
          tokens: 500,
          latencyMs: 1_200,
          scores: [
            {
              scorer: 'termination_accuracy',
              value: passed ? 1 : 0,
              passed,
              why: passed ? 'ended success' : 'ended max_iterations; expected success',
            },
          ],
          passed,
        });
        progress.done += 1;
        progress.passed += passed ? 1 : 0;
        progress.spent = { costUsd: progress.spent.costUsd + 0.001, tokens: progress.spent.tokens + 500 };
      }
  return {
    schemaVersion: 1,
    name: input.name,
    dataset: input.dataset,
    variants: input.variants,
    repeat: input.repeat,
    cases: input.cases.map((c) => ({ id: c.id, tags: c.tags })),
    status: 'completed',
    startedAt: '2026-11-25T10:00:00.000Z',
    endedAt: '2026-11-25T10:01:00.000Z',
    spent: progress.spent,
    results,
  };
}
