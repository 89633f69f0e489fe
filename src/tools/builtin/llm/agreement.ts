import type { LlmConsensus } from '../../../domain';

/** One model's answer, or none when its call failed. */
export interface Asked {
  alias: string;
  /** The whole answer, compared before any cut. */
  text?: string;
  /** What the result reports (the answer cut to its share); default `text`. */
  shown?: string;
}

/** Trailing punctuation that does not change an answer: `Paris.` and `paris` are one answer. */
const TRAILING_PUNCTUATION = new Set(['.', '!', '?', ',', ';', ':']);

/**
 * The form two answers are compared in: trimmed, lower-case, runs of whitespace as one space,
 * trailing punctuation dropped. Nothing else: `4` and `four` stay two answers. Exported for tests.
 */
export function normaliseAnswer(text: string): string {
  let s = text.trim().toLowerCase().split(/\s+/).join(' ');
  while (s.length > 0 && TRAILING_PUNCTUATION.has(s[s.length - 1]!)) s = s.slice(0, -1).trimEnd();
  return s;
}

/**
 * How far the models agree. Deterministic and free: no judge model is asked (that would cost a
 * call of its own and need an agreement of its own), so answers agree only when their normalised
 * text is equal. Answers are grouped by that text; every share has the number of models *asked*
 * as its denominator, so a failed call counts against agreement and can never make one:
 * - `agreement`: the largest group's size over the models asked (3 asked, 2 agree, 1 failed: 2/3);
 * - `majority`: that group's answer (as the first of its models, in the order asked, wrote it)
 *   when it is more than half of the models asked (so there is at most one); else absent;
 * - `unanimous`: agreement is 1 (every model answered, all alike).
 * Groups are ordered largest first, ties by their first model's place in the order asked.
 */
export function agreementOf(
  asked: readonly Asked[],
): Pick<LlmConsensus, 'agreement' | 'unanimous' | 'majority' | 'groups'> {
  const groups = new Map<string, { aliases: string[]; text: string }>();
  for (const { alias, text, shown } of asked) {
    if (text === undefined) continue;
    const key = normaliseAnswer(text);
    const group = groups.get(key);
    if (group) group.aliases.push(alias);
    else groups.set(key, { aliases: [alias], text: shown ?? text });
  }
  // A stable sort keeps groups of equal size in the order of their first model.
  const ordered = [...groups.values()].sort((a, b) => b.aliases.length - a.aliases.length);
  const largest = ordered[0];
  const agreement = asked.length > 0 && largest ? largest.aliases.length / asked.length : 0;
  const majority = largest && largest.aliases.length * 2 > asked.length ? largest.text : undefined;
  return {
    agreement,
    unanimous: agreement === 1,
    ...(majority !== undefined ? { majority } : {}),
    groups: ordered.map((g) => g.aliases),
  };
}
