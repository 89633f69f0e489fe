import type { AnswerClaim } from '../../../domain';

/**
 * Pure text builders for the claim judge (`grounding.judge`, docs/concepts.md "Grounded
 * answers"): one model call without tools that reads the claims the rules left unsupported and
 * the observations they might rest on, and replies with one JSON object. The same input gives
 * the same text.
 */

/** The most observations the judge reads (the newest); each answer rests on few. */
export const MAX_JUDGED_OBSERVATIONS = 20;
/** How much of one observation's result the judge reads. */
export const MAX_JUDGED_RESULT_CHARS = 2_000;
/** How much of the answer the judge reads, for the claims' context. */
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
    'For each claim you say which tool result supports it, if one does.',
    'You reply with one JSON object and nothing else.',
  ].join(' ');
}

export function claimJudgePrompt(
  answer: string,
  claims: readonly AnswerClaim[],
  observations: readonly JudgedObservation[],
): string {
  return [
    `The answer:\n${cut(answer, MAX_JUDGED_ANSWER_CHARS)}`,
    `Claims no tool result states word for word:\n${claims.map((c, i) => `${i + 1}. ${JSON.stringify(c.text)} (${c.kind})`).join('\n')}`,
    `The tool results:\n${observations
      .map(
        (o) => `- step "${o.stepId}", ${o.tool}: ${cut(JSON.stringify(o.result) ?? 'null', MAX_JUDGED_RESULT_CHARS)}`,
      )
      .join('\n')}`,
    [
      'A claim is supported when a tool result says the same thing in other words or units, or when it follows',
      'from the results by a step anyone can check (a sum, a conversion, a comparison). It is not supported',
      'when it comes from general knowledge or from nowhere.',
      'Reply with only the JSON object, listing only the supported claims by number and the step that supports each:',
      '{"supported": [{"claim": 1, "step": "<step id>", "why": "<a few words>"}]}',
    ].join(' '),
  ].join('\n\n');
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
