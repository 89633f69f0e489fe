import { foldText } from '../domain/text/answer-values';

/** A claim line of the claim judge's prompt (claim-judge-prompt.ts): `2. "Paris Region" (entity): unsupported`. */
const CLAIM_LINE = /^(\d+)\. ("(?:[^"\\]|\\.)*") \((\w+)(?:, of [^)]*)?\): (.*)$/;
/** An observation line of the same prompt: `- step "<id>", <tool>: <result as JSON>`. */
const OBSERVATION_LINE = /^- step "([^"]+)", [^:]*: (.*)$/;
/** Words shorter than this say too little to tie a claim to a result. */
const MIN_WORD_CHARS = 4;
/** The most fields of one result read. */
const MAX_FIELDS = 2_000;

/**
 * The offline model as claim judge (`grounding.judge`): a stand-in that reads no meaning, so it
 * judges only what it can show. A claim the rules left unsupported or unchecked is supported by
 * the first tool result with one field (a value and its key path, or the whole result when it is
 * not JSON or was cut) that holds every one of its words of four letters or more ("Paris Region"
 * needs "paris" and "region" in one field); a claim with no such word, or one the rules decided,
 * gets no verdict of its own. It never contradicts and never adds a claim. Deterministic.
 */
export function offlineClaimJudgeReply(prompt: string): string {
  const lines = prompt.split('\n');
  const observations = lines.flatMap((line) => {
    const m = OBSERVATION_LINE.exec(line);
    return m ? [{ step: m[1]!, fields: fieldsOf(m[2]!).map((f) => new Set(foldText(f).split(' '))) }] : [];
  });
  const verdicts = lines.flatMap((line) => {
    const m = CLAIM_LINE.exec(line);
    if (!m || (m[4] !== 'unsupported' && m[4] !== 'not checked')) return [];
    const words = foldText(String(JSON.parse(m[2]!)))
      .split(' ')
      .filter((w) => w.length >= MIN_WORD_CHARS);
    if (words.length === 0) return [];
    const found = observations.find((o) => o.fields.some((f) => words.every((w) => f.has(w))));
    if (!found) return [];
    return [
      {
        claim: Number(m[1]),
        verdict: 'supported',
        step: found.step,
        why: `the result holds ${words.map((w) => `"${w}"`).join(', ')}`,
      },
    ];
  });
  return JSON.stringify({ verdicts });
}

/** The fields of a result as the prompt shows it: each JSON value with its key path, or the whole text. */
function fieldsOf(shown: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(shown);
  } catch {
    return [shown];
  }
  const fields: string[] = [];
  const walk = (v: unknown, path: string, depth: number): void => {
    if (fields.length >= MAX_FIELDS || depth > 16) return;
    if (v !== null && typeof v === 'object')
      for (const [k, item] of Object.entries(v)) walk(item, Array.isArray(v) ? path : `${path} ${k}`, depth + 1);
    else fields.push(`${path} ${String(v)}`);
  };
  walk(parsed, '', 0);
  return fields.length > 0 ? fields : [shown];
}
