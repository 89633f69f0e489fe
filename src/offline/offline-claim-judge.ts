import { foldText } from '../domain/text/answer-values';

/** A claim line of the claim judge's prompt (claim-judge-prompt.ts): `2. "Paris Region" (entity): unsupported`. */
const CLAIM_LINE = /^(\d+)\. ("(?:[^"\\]|\\.)*") \((\w+)(?:, of [^)]*)?\): (.*)$/;
/** An observation line of the same prompt: `- step "<id>", <tool>: <result as JSON>`. */
const OBSERVATION_LINE = /^- step "([^"]+)", [^:]*: (.*)$/;
/** Words shorter than this say too little to tie a claim to a result. */
const MIN_WORD_CHARS = 4;

/**
 * The offline model as claim judge (`grounding.judge`): a stand-in that reads no meaning, so it
 * judges only what it can show. A claim the rules left unsupported or unchecked is supported by
 * the first tool result that holds every one of its words of four letters or more ("Paris
 * Region" needs both "paris" and "region" in one result); a claim with no such word, or one
 * the rules decided, gets no verdict of its own. It never contradicts and never adds a claim.
 * Deterministic.
 */
export function offlineClaimJudgeReply(prompt: string): string {
  const lines = prompt.split('\n');
  const observations = lines.flatMap((line) => {
    const m = OBSERVATION_LINE.exec(line);
    return m ? [{ step: m[1]!, words: new Set(foldText(m[2]!).split(' ')) }] : [];
  });
  const verdicts = lines.flatMap((line) => {
    const m = CLAIM_LINE.exec(line);
    if (!m || (m[4] !== 'unsupported' && m[4] !== 'not checked')) return [];
    const words = foldText(String(JSON.parse(m[2]!)))
      .split(' ')
      .filter((w) => w.length >= MIN_WORD_CHARS);
    if (words.length === 0) return [];
    const found = observations.find((o) => words.every((w) => o.words.has(w)));
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
