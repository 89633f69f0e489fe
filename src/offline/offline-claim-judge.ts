/** A claim line of the claim judge's prompt (claim-judge-prompt.ts): `1. "Paris Region" (entity)`. */
const CLAIM_LINE = /^(\d+)\. ("(?:[^"\\]|\\.)*") \(\w+\)$/;
/** An observation line of the same prompt: `- step "<id>", <tool>: <result as JSON>`. */
const OBSERVATION_LINE = /^- step "([^"]+)", [^:]*: (.*)$/;
/** Words shorter than this say too little to tie a claim to a result. */
const MIN_WORD_CHARS = 4;

/**
 * The offline model as claim judge (`grounding.judge`): a claim the rules left unsupported is
 * supported by the first tool result that holds one of its words of four letters or more, in any
 * case ("Paris Region" rests on a result naming Paris). Looser than the rules, as a judge of
 * paraphrase is, and blind to meaning: a word the result shares is enough. Deterministic.
 */
export function offlineClaimJudgeReply(prompt: string): string {
  const lines = prompt.split('\n');
  const observations = lines.flatMap((line) => {
    const m = OBSERVATION_LINE.exec(line);
    return m ? [{ step: m[1]!, text: m[2]!.toLowerCase() }] : [];
  });
  const supported = lines.flatMap((line) => {
    const m = CLAIM_LINE.exec(line);
    if (!m) return [];
    const words = String(JSON.parse(m[2]!))
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length >= MIN_WORD_CHARS);
    const found = observations.find((o) => words.some((w) => o.text.includes(w)));
    if (!found) return [];
    const word = words.find((w) => found.text.includes(w))!;
    return [{ claim: Number(m[1]), step: found.step, why: `the result names "${word}"` }];
  });
  return JSON.stringify({ supported });
}
