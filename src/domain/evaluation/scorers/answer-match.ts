import type { Score } from '../case-result';
import type { AnswerExpectation } from '../eval-case';
import type { ScoringFacts } from '../scoring-facts';
import { subsetMismatch, valueAt } from './json-values';
import { compileRe2 } from './re2-pattern';
import { score, shown, verdict } from './score';

export const ANSWER_MATCH = 'answer_match';

/**
 * The final answer against the case's expectation (each mode's rule is in eval-case.ts):
 * `exact` compares the answer with surrounding whitespace trimmed; `contains` scores the share of
 * values found and passes when all are; `regex` searches anywhere in the answer with RE2 (a
 * pattern RE2 refuses is a failed score that says so); `json_subset` reads `facts.output` when
 * the run had an output schema, else the answer as JSON (a ```json fence around it is allowed);
 * `numeric` reads the first number written in the answer (`-1,234.5`, `2e3`).
 */
export function answerMatch(expected: AnswerExpectation, facts: ScoringFacts): Score {
  const answer = facts.finalAnswer;
  const cutNote = facts.answerCut ? ' (the answer was cut for scoring)' : '';
  switch (expected.match) {
    case 'exact': {
      const fold = (t: string) => (expected.ignoreCase ? t.trim().toLowerCase() : t.trim());
      const passed = fold(answer) === fold(expected.value);
      return verdict(
        ANSWER_MATCH,
        passed,
        passed ? 'exact match' : `answer ${shown(answer, 60)} is not exactly ${shown(expected.value, 60)}${cutNote}`,
      );
    }
    case 'contains': {
      const values = Array.isArray(expected.value) ? expected.value : [expected.value];
      const haystack = expected.ignoreCase ? answer.toLowerCase() : answer;
      const missing = values.filter((v) => !haystack.includes(expected.ignoreCase ? v.toLowerCase() : v));
      const found = values.length - missing.length;
      return score(
        ANSWER_MATCH,
        found / values.length,
        missing.length === 0,
        missing.length === 0
          ? `contains all ${values.length} expected value${values.length === 1 ? '' : 's'}`
          : `missing ${missing.map((m) => shown(m, 40)).join(', ')} (${found} of ${values.length} found)${cutNote}`,
      );
    }
    case 'regex': {
      const compiled = compileRe2(expected.pattern, expected.ignoreCase);
      if ('problem' in compiled)
        return verdict(ANSWER_MATCH, false, `pattern ${shown(expected.pattern)} refused by RE2: ${compiled.problem}`);
      const passed = compiled.test(answer);
      return verdict(
        ANSWER_MATCH,
        passed,
        `${passed ? 'matches' : 'does not match'} ${shown(expected.pattern, 80)}${passed ? '' : cutNote}`,
      );
    }
    case 'json_subset': {
      const read = facts.output !== undefined ? { value: facts.output } : parseJson(answer);
      if (!('value' in read)) return verdict(ANSWER_MATCH, false, `the answer is not JSON: ${read.problem}${cutNote}`);
      const where = subsetMismatch(expected.value, read.value);
      if (where === undefined)
        return verdict(
          ANSWER_MATCH,
          true,
          `${facts.output !== undefined ? 'output' : 'answer'} contains the expected JSON`,
        );
      return verdict(
        ANSWER_MATCH,
        false,
        `at ${where}: expected ${shown(valueAt(expected.value, where))}, got ${shown(valueAt(read.value, where))}`,
      );
    }
    case 'numeric': {
      const found = firstNumber(answer);
      const allowed = expected.relative ? expected.tolerance * Math.abs(expected.value) : expected.tolerance;
      const within = allowed === 0 ? '' : ` ± ${allowed}`;
      if (found === undefined)
        return verdict(ANSWER_MATCH, false, `no number in the answer; expected ${expected.value}${within}${cutNote}`);
      const passed = Math.abs(found - expected.value) <= allowed;
      return verdict(
        ANSWER_MATCH,
        passed,
        `first number ${found}${passed ? ' is' : ' is not'} ${expected.value}${within}`,
      );
    }
  }
}

function parseJson(answer: string): { value: unknown } | { problem: string } {
  let text = answer.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(text);
  if (fenced) text = fenced[1]!.trim();
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : 'it does not parse' };
  }
}

/**
 * The first number written in a text: an optional minus, digits with optional thousands commas,
 * a decimal part, an exponent. Scans once (linear in the text).
 */
export function firstNumber(text: string): number | undefined {
  const m = /-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?/.exec(text);
  if (!m) return undefined;
  const n = Number(m[0].replace(/,/g, ''));
  return Number.isFinite(n) ? n : undefined;
}
