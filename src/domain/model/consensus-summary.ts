import { z } from 'zod';
import { ComparedAs } from './llm-answer';

/**
 * The agreement part of a consensus step's result (what `takeConsensus` records): enough to say
 * how the models split without reading the JSON. Loose on purpose: it reads recorded results,
 * including ones recorded before `groupedBy` was kept.
 */
const ConsensusStepResult = z.object({
  agreement: z.number().min(0).max(1),
  majority: z.string().optional(),
  groups: z.array(z.array(z.string())),
  groupedBy: z.array(ComparedAs).optional(),
  judgeProblem: z.string().optional(),
  answers: z.array(z.object({ model: z.string(), answer: z.string().optional(), error: z.string().optional() })),
});

/** How many characters of each group's answer a one-line summary shows. */
const ANSWER_CHARS = 60;

const AS_WORDS: Readonly<Record<ComparedAs, string>> = {
  verdict: 'as a yes/no',
  number: 'as a number',
  date: 'as a date',
  set: 'as a set',
  text: 'as text',
  judge: 'grouped by the judge',
};

/**
 * One line for a consensus result, or undefined for any other result: the agreement, then each
 * group with its models, its answer (cut) and what it was compared as (or that the judge model
 * grouped it), largest group first, then failures and why a judge's grouping was not used:
 * `agreement 2 of 3 · fast, smart: "4 km" (as a number) · tiny: "Lyon and Paris" (as a set) · failed: slow`.
 */
export function consensusSummary(result: unknown): string | undefined {
  const parsed = ConsensusStepResult.safeParse(result);
  if (!parsed.success) return undefined;
  const { agreement, groups, groupedBy, judgeProblem, answers } = parsed.data;
  const answerOf = new Map(answers.map((a) => [a.model, a.answer]));
  const agreeing = groups[0]?.length ?? 0;
  const parts = [`agreement ${agreeing} of ${answers.length}${agreement === 1 ? ' (unanimous)' : ''}`];
  groups.forEach((models, i) => {
    const answer = answerOf.get(models[0] ?? '') ?? '';
    const cut = answer.length > ANSWER_CHARS ? `${answer.slice(0, ANSWER_CHARS)}…` : answer;
    const as = groupedBy?.[i];
    parts.push(`${models.join(', ')}: ${JSON.stringify(cut)}${as ? ` (${AS_WORDS[as]})` : ''}`);
  });
  const failed = answers.filter((a) => a.error !== undefined).map((a) => a.model);
  if (failed.length > 0) parts.push(`failed: ${failed.join(', ')}`);
  if (judgeProblem !== undefined) parts.push(`judge: ${judgeProblem}`);
  return parts.join(' · ');
}
