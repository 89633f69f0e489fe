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
  answers: z.array(z.object({ model: z.string(), answer: z.string().optional(), error: z.string().optional() })),
});

/** How many characters of each group's answer a one-line summary shows. */
const ANSWER_CHARS = 60;

const AS_WORDS: Readonly<Record<ComparedAs, string>> = {
  verdict: 'a yes/no',
  number: 'a number',
  date: 'a date',
  set: 'a set',
  text: 'text',
};

/**
 * One line for a consensus result, or undefined for any other result: the agreement, then each
 * group with its models, its answer (cut) and what it was compared as, largest group first:
 * `agreement 2 of 3 · fast, smart: "4 km" (as a number) · tiny: "Lyon and Paris" (as a set) · failed: slow`.
 */
export function consensusSummary(result: unknown): string | undefined {
  const parsed = ConsensusStepResult.safeParse(result);
  if (!parsed.success) return undefined;
  const { agreement, groups, groupedBy, answers } = parsed.data;
  const answerOf = new Map(answers.map((a) => [a.model, a.answer]));
  const agreeing = groups[0]?.length ?? 0;
  const parts = [`agreement ${agreeing} of ${answers.length}${agreement === 1 ? ' (unanimous)' : ''}`];
  groups.forEach((models, i) => {
    const answer = answerOf.get(models[0] ?? '') ?? '';
    const cut = answer.length > ANSWER_CHARS ? `${answer.slice(0, ANSWER_CHARS)}…` : answer;
    const as = groupedBy?.[i];
    parts.push(`${models.join(', ')}: ${JSON.stringify(cut)}${as ? ` (as ${AS_WORDS[as]})` : ''}`);
  });
  const failed = answers.filter((a) => a.error !== undefined).map((a) => a.model);
  if (failed.length > 0) parts.push(`failed: ${failed.join(', ')}`);
  return parts.join(' · ');
}
