import { MAX_JUDGED_ANSWER_CHARS, type BranchMark } from '../../domain';

/** A branch that finished, as the judge reads it. */
export interface FinishedBranch {
  mark: BranchMark;
  answer: string;
  grounding: string | undefined;
  costUsd: number;
  iterations: number;
}

/** The branch judge's instructions; the offline model recognises its requests by them. */
export function branchJudgeSystem(): string {
  return [
    'You compare answers to the same task, each found by trying a different approach, and pick the best.',
    'Prefer an answer that is complete, correct for the task, backed by tool results (grounded), and meets the criteria; cost breaks ties.',
    'Reply with one JSON object and nothing else: {"winner": <branch number>, "reason": "<one or two sentences>"}.',
  ].join('\n');
}

/** The task, the criteria, and each finished branch's answer (cut to MAX_JUDGED_ANSWER_CHARS) with its grounding and spend. */
export function branchJudgePrompt(task: string, criteria: string, finished: readonly FinishedBranch[]): string {
  return [
    `Task: ${task}`,
    `Criteria: ${criteria || 'the most complete and correct answer to the task'}`,
    '',
    ...finished.flatMap((b) => [
      `Branch ${b.mark.index} ("${b.mark.label}"), ${b.grounding ?? 'grounding unknown'}, ${b.iterations} iterations, $${b.costUsd.toFixed(4)}:`,
      b.answer.slice(0, MAX_JUDGED_ANSWER_CHARS),
      '',
    ]),
  ].join('\n');
}
