import { z } from 'zod';
import { FallbackModel } from '../model/model-settings';
import type { TerminationReason } from '../run/termination';

/**
 * What stands behind an answer (docs/concepts.md, "Grounded answers"). With at least one tool's
 * successful observation (their step ids are the synthesis's `sources`) the answer's checkable
 * claims are compared with them (`ClaimCheck`): `grounded` when every claim is supported by an
 * observation or given by the task, context or a person (or the answer states none),
 * `partly_grounded` when some are not. Without an observation: `unsupported` after a `success`
 * (the model's own knowledge), `ungrounded` after any other ending.
 */
export const AnswerGrounding = z.enum(['grounded', 'partly_grounded', 'unsupported', 'ungrounded']);
export type AnswerGrounding = z.infer<typeof AnswerGrounding>;

/** The most claims one answer's check records; the rest are counted in `omitted`. */
export const MAX_CHECKED_CLAIMS = 40;
/** The longest claim text (and value) recorded; a longer quote is cut. */
export const MAX_CLAIM_CHARS = 120;

/** What a claim states: a number (with its unit), a date, a quoted string, a named entity, a yes/no verdict. */
export const ClaimKind = z.enum(['number', 'date', 'quote', 'entity', 'verdict']);
export type ClaimKind = z.infer<typeof ClaimKind>;

/** Where a claim came from when no observation supports it but the run was given it. */
export const ClaimGiven = z.enum(['task', 'context', 'person']);
export type ClaimGiven = z.infer<typeof ClaimGiven>;

/** One checkable claim of an answer and what supports it; neither `supportedBy` nor `given`: unsupported. */
export const AnswerClaim = z.object({
  kind: ClaimKind,
  /** As the answer writes it: "42 km", "12 March 2024", "Lyon". */
  text: z.string().max(MAX_CLAIM_CHARS),
  /** Its comparable form: "42000 m", "2024-03-12", "lyon", "yes". */
  value: z.string().max(MAX_CLAIM_CHARS),
  /** Offset in the answer's text, for views that mark it. */
  at: z.number().int().nonnegative(),
  /** The step id of the observation that supports it (the oldest one that does). */
  supportedBy: z.string().optional(),
  /** Set when no observation supports it but the task, the context or a person gave it. */
  given: ClaimGiven.optional(),
  /** The judge model that found `supportedBy` when the rules found nothing (`grounding.judge`). */
  judgedBy: z.string().max(MAX_CLAIM_CHARS).optional(),
});
export type AnswerClaim = z.infer<typeof AnswerClaim>;

/** The per-claim judgement behind `grounded` and `partly_grounded` (the synthesis's `claimCheck`). */
export const ClaimCheck = z.object({
  /**
   * `rules`: the deterministic reader (src/domain/chain/claim-support.ts); `rules+judge`: then the
   * judge model (`grounding.judge`) read the claims the rules left unsupported (claims it decided
   * carry `judgedBy`).
   */
  method: z.enum(['rules', 'rules+judge']),
  claims: z.array(AnswerClaim).max(MAX_CHECKED_CLAIMS),
  /** The unsupported claims' texts, in answer order: what one-line views name. */
  unsupported: z.array(z.string().max(MAX_CLAIM_CHARS)).max(MAX_CHECKED_CLAIMS),
  /** Claims past MAX_CHECKED_CLAIMS, not checked. */
  omitted: z.number().int().nonnegative().optional(),
});
export type ClaimCheck = z.infer<typeof ClaimCheck>;

/**
 * How a run judges its answer beyond the rules (`AgentInput.grounding`, docs/concepts.md
 * "Grounded answers"). `judge`: a model that reads the claims the rules left unsupported, with
 * the observations, in one call after the answer (a visible `llm` step on the run's budget); it
 * may only say which observation supports a claim. Absent: the rules alone, no call.
 */
export const GroundingSettings = z.object({ judge: FallbackModel.optional() }).strict();
export type GroundingSettings = z.infer<typeof GroundingSettings>;

/**
 * How every view names an answer: `final` (grounded, the run succeeded), `partial` (grounded, but
 * the run ended otherwise), `partly` (partly grounded, whatever the ending), `unsupported` and
 * `ungrounded`. Only `final` is titled "Final answer".
 */
export type AnswerKind = 'final' | 'partial' | 'partly' | 'unsupported' | 'ungrounded';

export interface AnswerLabel {
  kind: AnswerKind;
  /**
   * "Final answer", "Partial answer (max_iterations)", "Answer, partly grounded", "Partial answer
   * (max_iterations), partly grounded", "Answer, no tool result behind it", "Ungrounded summary (stalled)".
   */
  title: string;
}

/**
 * The label of a judged answer, or undefined for one recorded before answers were judged (no
 * `grounding`): each view then shows it as it always did. Without a reason, `grounded` is final.
 */
export function answerLabel(judged: {
  grounding?: AnswerGrounding;
  terminationReason?: TerminationReason;
}): AnswerLabel | undefined {
  const { grounding, terminationReason: reason } = judged;
  switch (grounding) {
    case undefined:
      return undefined;
    case 'grounded':
      return reason === undefined || reason === 'success'
        ? { kind: 'final', title: 'Final answer' }
        : { kind: 'partial', title: `Partial answer (${reason})` };
    case 'partly_grounded':
      return {
        kind: 'partly',
        title:
          reason === undefined || reason === 'success'
            ? 'Answer, partly grounded'
            : `Partial answer (${reason}), partly grounded`,
      };
    case 'unsupported':
      return { kind: 'unsupported', title: 'Answer, no tool result behind it' };
    case 'ungrounded':
      return { kind: 'ungrounded', title: `Ungrounded summary (${reason ?? 'not a success'})` };
  }
}

/** "confidence 80%", or undefined when no confidence was given. */
export function confidenceText(confidence: number | undefined): string | undefined {
  return confidence === undefined ? undefined : `confidence ${Math.round(confidence * 100)}%`;
}

/** "unsupported: 42 km, Lyon": a partly grounded answer's unsupported claims for a one-line view; undefined otherwise. */
export function unsupportedText(judged: {
  grounding?: AnswerGrounding;
  unsupported?: readonly string[] | undefined;
}): string | undefined {
  const { grounding, unsupported } = judged;
  return grounding === 'partly_grounded' && unsupported && unsupported.length > 0
    ? `unsupported: ${unsupported.join(', ')}`
    : undefined;
}

/**
 * How a child's answer is named after its status: ", partly grounded answer (unsupported: 42 km)",
 * ", unsupported answer", ", ungrounded answer"; empty when grounded or recorded before answers were judged.
 */
export function subAgentAnswerNote(run: {
  grounding?: AnswerGrounding;
  unsupportedClaims?: readonly string[];
}): string {
  if (run.grounding === undefined || run.grounding === 'grounded') return '';
  if (run.grounding !== 'partly_grounded') return `, ${run.grounding} answer`;
  const which = unsupportedText({ grounding: run.grounding, unsupported: run.unsupportedClaims });
  return `, partly grounded answer${which ? ` (${which})` : ''}`;
}
