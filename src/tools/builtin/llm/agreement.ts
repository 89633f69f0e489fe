import type { ComparedAs, LlmConsensus } from '../../../domain';
import { answerShape, sameAnswer } from '../../../domain/text/answer-equivalence';

/** One model's answer, or none when its call failed. */
export interface Asked {
  alias: string;
  /** The whole answer, compared before any cut. */
  text?: string;
  /** What the result reports (the answer cut to its share); default `text`. */
  shown?: string;
}

/** Models whose answers say the same thing, in the order asked, and what they were compared as. */
export interface AnswerGroup {
  aliases: string[];
  /** The first model's answer as the result reports it. */
  text: string;
  /** The first model's whole answer. */
  whole: string;
  by: ComparedAs;
}

/**
 * The answers grouped by `sameAnswer` (domain/text/answer-equivalence.ts): one yes/no verdict,
 * one number allowing for units and rounding ("4", "four", "4.0"), one date, one short list as a
 * set, or the same text once case, punctuation and diacritics are folded. Each answer joins the
 * first group, in the order asked, whose first answer it agrees with. Deterministic and free.
 */
export function groupAnswers(asked: readonly Asked[]): AnswerGroup[] {
  const groups: Array<AnswerGroup & { shape: ReturnType<typeof answerShape> }> = [];
  for (const { alias, text, shown } of asked) {
    if (text === undefined) continue;
    const shape = answerShape(text);
    const group = groups.find((g) => sameAnswer(g.shape, shape));
    if (group) group.aliases.push(alias);
    else groups.push({ aliases: [alias], text: shown ?? text, whole: text, by: shape.kind, shape });
  }
  return groups.map(({ aliases, text, whole, by }) => ({ aliases, text, whole, by }));
}

/**
 * How far the models agree, from their groups (`groupAnswers`, perhaps regrouped by a judge
 * model: consensus-judge.ts). Every share has the number of models *asked* as its denominator,
 * so a failed call counts against agreement and can never make one:
 * - `agreement`: the largest group's size over the models asked (3 asked, 2 agree, 1 failed: 2/3);
 * - `majority`: that group's answer (as the first of its models, in the order asked, wrote it)
 *   when it is more than half of the models asked (so there is at most one); else absent;
 * - `unanimous`: agreement is 1 (every model answered, all alike);
 * - `groupedBy`: per group, the kind its answers were compared as.
 * Groups are ordered largest first, ties by their first model's place in the order asked.
 */
export function agreementOf(
  asked: readonly Asked[],
  groups: readonly AnswerGroup[] = groupAnswers(asked),
): Pick<LlmConsensus, 'agreement' | 'unanimous' | 'majority' | 'groups' | 'groupedBy'> {
  // A stable sort keeps groups of equal size in the order of their first model.
  const ordered = [...groups].sort((a, b) => b.aliases.length - a.aliases.length);
  const largest = ordered[0];
  const agreement = asked.length > 0 && largest ? largest.aliases.length / asked.length : 0;
  const majority = largest && largest.aliases.length * 2 > asked.length ? largest.text : undefined;
  return {
    agreement,
    unanimous: agreement === 1,
    ...(majority !== undefined ? { majority } : {}),
    groups: ordered.map((g) => g.aliases),
    groupedBy: ordered.map((g) => g.by),
  };
}
