import type { EvaluationProgress } from '../../domain/evaluation/case-result';
import type { EvaluationInput } from '../../domain/evaluation/evaluation-input';
import { markdownText } from '../../domain/text/markdown-escape';

/** The Web UI's "Current Details" of an evaluation: how far it has come and what it spent, against its budget. */
export function evaluationDetails(
  input: Pick<EvaluationInput, 'name' | 'budget' | 'concurrency'>,
  progress: EvaluationProgress,
  state: string,
): string {
  const { total, done, running, skipped, passed, spent } = progress;
  const budget = input.budget;
  const cost = `$${spent.costUsd.toFixed(4)}${budget?.costUsd !== undefined ? ` of $${budget.costUsd}` : ''}`;
  const tokens = `${spent.tokens}${budget?.tokens !== undefined ? ` of ${budget.tokens}` : ''} tokens`;
  return [
    `**Evaluation ${markdownText(input.name)}**: ${state}`,
    '',
    `| done | running | skipped | passed | total |`,
    `| ---: | ---: | ---: | ---: | ---: |`,
    `| ${done} | ${running} | ${skipped} | ${passed} | ${total} |`,
    '',
    `Spent ${cost}, ${tokens}; at most ${input.concurrency} runs at once.`,
  ].join('\n');
}
