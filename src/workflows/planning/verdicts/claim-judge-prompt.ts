import type { AnswerClaim } from '../../../domain';

/**
 * Pure text builders for the claim judge (`grounding.judge`, docs/concepts.md "Grounded
 * answers"): one model call without tools that reads the whole answer, every claim the rules
 * found with what they decided, and the observations, and replies with one JSON object of
 * verdicts. The same input gives the same text.
 */

/** The most observations the judge reads (the newest); each answer rests on few. */
export const MAX_JUDGED_OBSERVATIONS = 20;
/** How much of one observation's result the judge reads. */
export const MAX_JUDGED_RESULT_CHARS = 2_000;
/** How much of the answer the judge reads. */
export const MAX_JUDGED_ANSWER_CHARS = 4_000;

/** One observation as the judge reads it: its step id (what the judge names), its tool and its result. */
export interface JudgedObservation {
  stepId: string;
  tool: string;
  result: unknown;
}

export function claimJudgeSystem(): string {
  return [
    "You check an autonomous agent's answer against the tool results it gathered.",
    'For each claim of the answer you say whether a tool result supports it, contradicts it, or neither.',
    'You reply with one JSON object and nothing else.',
  ].join(' ');
}

/** What the rules decided of a claim, as the judge reads it: `supported by step "s4"`, `not checked`. */
export function rulesVerdict(claim: AnswerClaim): string {
  if (claim.contradictedBy !== undefined) return `contradicted by step "${claim.contradictedBy}"`;
  if (claim.supportedBy !== undefined) return `supported by step "${claim.supportedBy}"`;
  if (claim.given !== undefined) return `given by the ${claim.given}`;
  return claim.unchecked ? 'not checked' : 'unsupported';
}

export function claimJudgePrompt(
  answer: string,
  claims: readonly AnswerClaim[],
  observations: readonly JudgedObservation[],
): string {
  const listed = claims.map(
    (c, i) =>
      `${i + 1}. ${JSON.stringify(c.text)} (${c.kind}${c.about !== undefined ? `, of ${c.about}` : ''}): ${rulesVerdict(c)}`,
  );
  return [
    `The answer:\n${cut(answer, MAX_JUDGED_ANSWER_CHARS)}`,
    `The claims a word-for-word reading found, with what it decided:\n${listed.length > 0 ? listed.join('\n') : '(none)'}`,
    `The tool results:\n${observations
      .map(
        (o) => `- step "${o.stepId}", ${o.tool}: ${cut(JSON.stringify(o.result) ?? 'null', MAX_JUDGED_RESULT_CHARS)}`,
      )
      .join('\n')}`,
    [
      'Read the whole answer. Give a verdict on each listed claim the reading got wrong or did not check, and on each',
      'statement of the answer it missed (quote it exactly as the answer writes it). A claim is "supported" when a',
      'tool result says the same thing of the same subject, in other words or units, or when it follows from the',
      'results by a step anyone can check (a sum, a conversion, a comparison); "contradicted" when a tool result says',
      'otherwise; "unsupported" when it comes from general knowledge or from nowhere. Name the step for supported',
      'and contradicted. Reply with only the JSON object:',
      '{"verdicts": [{"claim": 1, "verdict": "contradicted", "step": "<step id>", "why": "<a few words>"},',
      '{"text": "<words of the answer>", "verdict": "supported", "step": "<step id>", "why": "<a few words>"}]}',
    ].join(' '),
  ].join('\n\n');
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
