import { MAX_SCORE_WHY_CHARS, type Score } from '../../domain/evaluation/case-result';
import type { ScorerDefinition, ScorerInput } from '../../eval/define-scorer';

/**
 * One worker scorer's score: its verdict checked (value in [0, 1] or a boolean), `passed` by
 * default value ≥ 0.5; what it throws or returns wrong is a failed score saying so.
 */
export async function userScore(scorer: ScorerDefinition, input: ScorerInput): Promise<Score> {
  const failed = (why: string): Score => ({ scorer: scorer.name, value: 0, passed: false, why: cutWhy(why) });
  try {
    const verdict = await scorer.score(input);
    const value = typeof verdict?.value === 'boolean' ? (verdict.value ? 1 : 0) : verdict?.value;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1)
      return failed(
        `scorer returned value ${JSON.stringify(verdict?.value)}; it must be a number from 0 to 1 or a boolean`,
      );
    const passed = typeof verdict.passed === 'boolean' ? verdict.passed : value >= 0.5;
    return { scorer: scorer.name, value, passed, why: cutWhy(String(verdict.why ?? '')) };
  } catch (err) {
    return failed(`scorer threw: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** A score for a name no scorer of this worker has. */
export function unknownScore(name: string, known: readonly string[]): Score {
  const has = known.length ? `it has ${known.join(', ')}` : 'it has none';
  return { scorer: name, value: 0, passed: false, why: cutWhy(`no scorer "${name}" on this worker (${has})`) };
}

export const cutWhy = (why: string): string =>
  why.length > MAX_SCORE_WHY_CHARS ? `${why.slice(0, MAX_SCORE_WHY_CHARS - 1)}…` : why;
