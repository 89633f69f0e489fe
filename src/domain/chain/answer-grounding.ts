import { z } from 'zod';
import { FallbackModel } from '../model/model-settings';
import type { TerminationReason } from '../run/termination';

/**
 * What stands behind an answer (docs/concepts.md, "Grounded answers"). With at least one tool's
 * successful observation (their step ids are the synthesis's `sources`) the answer's claims are
 * compared with them (`ClaimCheck`), each bound to what it is said of: `grounded` when every claim
 * is supported by an observation or given by the task, context or a person; `contradicted` when an
 * observation says otherwise of one (worst first); `partly_grounded` when some have nothing behind
 * them; `unchecked` when every claim that could be checked stands but some statements could not be
 * checked (an answer with nothing checkable in it included). Without an observation:
 * `unsupported` after a `success` (the model's own knowledge), `ungrounded` after any other ending.
 */
export const AnswerGrounding = z.enum([
  'grounded',
  'contradicted',
  'partly_grounded',
  'unchecked',
  'unsupported',
  'ungrounded',
]);
export type AnswerGrounding = z.infer<typeof AnswerGrounding>;

/** The most claims one answer's check records; the rest are counted in `omitted`. */
export const MAX_CHECKED_CLAIMS = 40;
/** The longest claim text (and value) recorded; a longer quote is cut. */
export const MAX_CLAIM_CHARS = 120;
/** The longest name of a claim in a one-line list: its text and what it is said of. */
export const MAX_CLAIM_TEXT_CHARS = 2 * MAX_CLAIM_CHARS + 3;

/**
 * What a claim states: a number (with its unit), a date, a quoted string, a named entity, a yes/no
 * verdict, a condition ("light rain", "sunny"), a conclusion drawn from numbers ("the warmer"), or
 * a statement the rules read nothing checkable in (a sentence, named by the judge or left unchecked).
 */
export const ClaimKind = z.enum([
  'number',
  'date',
  'quote',
  'entity',
  'verdict',
  'condition',
  'conclusion',
  'statement',
]);
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
  /** What the claim is said of, when the answer names it ("Tokyo" for "Tokyo is 12°C"): only its observations count. */
  about: z.string().max(MAX_CLAIM_CHARS).optional(),
  /** The step id of an observation that says otherwise of the same subject ("light rain" against "sunny"). */
  contradictedBy: z.string().optional(),
  /** Set when neither the rules nor a judge could check the claim (a negation no observation settles, a lone statement). */
  unchecked: z.literal(true).optional(),
  /** The judge model whose verdict decided the claim (`grounding.judge`). */
  judgedBy: z.string().max(MAX_CLAIM_CHARS).optional(),
});
export type AnswerClaim = z.infer<typeof AnswerClaim>;

/** The per-claim judgement behind `grounded` and `partly_grounded` (the synthesis's `claimCheck`). */
export const ClaimCheck = z.object({
  /**
   * `rules`: the deterministic reader (src/domain/chain/claim-support.ts); `rules+judge`: then the
   * judge model (`grounding.judge`) read the whole answer, with the rules' verdicts, and decided
   * claims (those carry `judgedBy`).
   */
  method: z.enum(['rules', 'rules+judge']),
  claims: z.array(AnswerClaim).max(MAX_CHECKED_CLAIMS),
  /** The unsupported claims, in answer order, as one-line views name them ("12°C (Tokyo)"). */
  unsupported: z.array(z.string().max(MAX_CLAIM_TEXT_CHARS)).max(MAX_CHECKED_CLAIMS),
  /** The contradicted claims, named the same way. */
  contradicted: z.array(z.string().max(MAX_CLAIM_TEXT_CHARS)).max(MAX_CHECKED_CLAIMS).optional(),
  /** The claims nothing checked, named the same way. */
  unchecked: z.array(z.string().max(MAX_CLAIM_TEXT_CHARS)).max(MAX_CHECKED_CLAIMS).optional(),
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
 * the run ended otherwise), `contradicted`, `partly` (partly grounded), `unchecked`, `unsupported`
 * and `ungrounded`. Only `final` is titled "Final answer".
 */
export type AnswerKind = 'final' | 'partial' | 'contradicted' | 'partly' | 'unchecked' | 'unsupported' | 'ungrounded';

export interface AnswerLabel {
  kind: AnswerKind;
  /**
   * "Final answer", "Partial answer (max_iterations)", "Answer contradicted by its sources",
   * "Answer, partly grounded", "Answer, not fully checked", "Partial answer (max_iterations),
   * partly grounded", "Answer, no tool result behind it", "Ungrounded summary (stalled)".
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
  const ended = reason === undefined || reason === 'success' ? 'Answer' : `Partial answer (${reason})`;
  switch (grounding) {
    case undefined:
      return undefined;
    case 'grounded':
      return reason === undefined || reason === 'success'
        ? { kind: 'final', title: 'Final answer' }
        : { kind: 'partial', title: `Partial answer (${reason})` };
    case 'contradicted':
      return { kind: 'contradicted', title: `${ended} contradicted by its sources` };
    case 'partly_grounded':
      return { kind: 'partly', title: `${ended}, partly grounded` };
    case 'unchecked':
      return { kind: 'unchecked', title: `${ended}, not fully checked` };
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

/** The claims at fault in an answer's check, by kind of fault, as one-line views name them. */
export interface ClaimFaults {
  contradicted?: readonly string[] | undefined;
  unsupported?: readonly string[] | undefined;
  unchecked?: readonly string[] | undefined;
}

/**
 * "contradicted: sunny (Paris); unsupported: 12°C (Tokyo); unchecked: …": the claims at fault of
 * an answer that is not grounded, for a one-line view; undefined when there are none.
 */
export function claimFaultsText(judged: { grounding?: AnswerGrounding } & ClaimFaults): string | undefined {
  if (judged.grounding === undefined || judged.grounding === 'grounded') return undefined;
  const parts = (['contradicted', 'unsupported', 'unchecked'] as const).flatMap((fault) => {
    const named = judged[fault];
    return named && named.length > 0 ? [`${fault}: ${named.join(', ')}`] : [];
  });
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** The faults a claim check records (old checks have only `unsupported`). */
export function faultsOf(check: ClaimCheck | undefined): ClaimFaults {
  return { contradicted: check?.contradicted, unsupported: check?.unsupported, unchecked: check?.unchecked };
}

/**
 * How a child's answer is named after its status: ", partly grounded answer (unsupported: 42 km)",
 * ", contradicted answer (at fault: sunny (Paris))", ", unsupported answer"; empty when
 * grounded or recorded before answers were judged. A child names its faults in `unsupportedClaims`.
 */
export function subAgentAnswerNote(run: {
  grounding?: AnswerGrounding;
  unsupportedClaims?: readonly string[];
}): string {
  if (run.grounding === undefined || run.grounding === 'grounded') return '';
  const name = run.grounding === 'partly_grounded' ? 'partly grounded' : run.grounding;
  const faults = run.unsupportedClaims ?? [];
  const kind = run.grounding === 'partly_grounded' ? 'unsupported' : 'at fault';
  return `, ${name} answer${faults.length > 0 ? ` (${kind}: ${faults.join(', ')})` : ''}`;
}
