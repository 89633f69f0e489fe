import { readStructuredAnswer, type OutputSchema } from '../../domain';
import type { EarlyStop, NextStep } from './decide-next-step';

type FinalAnswer = Extract<NextStep, { kind: 'final_answer' }>;

/**
 * A final answer checked against the run's output schema: the answer with its value (`output`)
 * and its JSON text, or the mismatch as a step the model hears about — the finish call refused
 * with the problem as its result, or a text answer taken as a format error — so it tries again
 * within the run's limits.
 */
export function structuredFinal(next: FinalAnswer, schema: OutputSchema): Exclude<NextStep, EarlyStop> {
  const given = next.via === 'finish_tool' ? next.finishCall.input['result'] : next.answer;
  const read = readStructuredAnswer(schema, given);
  if (read.ok) return { ...next, answer: read.text, output: read.value };
  if (next.via === 'finish_tool')
    return { kind: 'invalid_finish', finishCall: next.finishCall, others: next.skipped, problem: read.problem };
  return { kind: 'format_error', message: read.problem };
}
