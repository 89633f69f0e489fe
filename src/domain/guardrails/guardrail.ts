import { z } from 'zod';
import { addUsage, addUsd, zeroUsage, type TokenUsage } from '../model/usage';

/**
 * Guardrails (docs/guardrails.md): checks a worker registers (`defineGuardrail`) and runs name,
 * each at one stage of the loop. Sandbox-safe: the workflow reads these shapes, the worker fills them.
 */

/** Where a guardrail checks: the task before the first model call, each tool result before the model reads it, the answer before it is the run's. */
export const GuardrailStage = z.enum(['input', 'tool_result', 'output']);
export type GuardrailStage = z.infer<typeof GuardrailStage>;

/** Letters, digits, `-`, `_` and `.`; at most 64 characters (as scorers). */
export const GUARDRAIL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
export const GuardrailName = z.string().regex(GUARDRAIL_NAME_PATTERN, {
  message: 'A guardrail name is 1 to 64 letters, digits, "-", "_" and ".".',
});

/** Most guardrails one run (its input and its agent's definition together) names. */
export const MAX_RUN_GUARDRAILS = 16;
/**
 * Most characters one guardrail check reads. A longer text is not checked at all: it is blocked
 * (fails closed), so nothing past the limit slips through unread. Tool results and answers are
 * bounded below it already by the run's own limits.
 */
export const MAX_GUARDRAIL_TEXT_CHARS = 200_000;
/** Most texts one check point sends (a turn's tool results). */
export const MAX_GUARDRAIL_TEXTS = 64;
/** A verdict's reason is cut to this many characters. */
export const MAX_GUARDRAIL_REASON_CHARS = 500;

/** Most tokens, and US dollars, one verdict may report spending: larger is a bug, and unreadable. */
const MAX_SPEND_TOKENS = 100_000_000;
const MAX_SPEND_USD = 10_000;

/**
 * What a check that calls a model (an LLM judge) spent on one text, as it reports it: it joins the
 * run's tokens and cost, its budgets and its tenant's quota, like an `llm` tool's call.
 */
export const GuardrailSpend = z
  .object({
    /** The judge's model, shown on the step. */
    model: z.string().min(1).max(200).optional(),
    inputTokens: z.number().int().nonnegative().max(MAX_SPEND_TOKENS).optional(),
    outputTokens: z.number().int().nonnegative().max(MAX_SPEND_TOKENS).optional(),
    costUsd: z.number().nonnegative().max(MAX_SPEND_USD).optional(),
  })
  .strict();
export type GuardrailSpend = z.infer<typeof GuardrailSpend>;

/** What a guardrail decided about one text (and, if it called a model, what that cost: `spend`). */
export const GuardrailVerdict = z.discriminatedUnion('verdict', [
  z.object({ verdict: z.literal('pass'), spend: GuardrailSpend.optional() }),
  /** The text goes on as `text` (e.g. with the personal data masked); `reason` says what was replaced. */
  z.object({
    verdict: z.literal('redact'),
    text: z.string().max(MAX_GUARDRAIL_TEXT_CHARS),
    reason: z.string().optional(),
    spend: GuardrailSpend.optional(),
  }),
  /** The text goes no further: the run ends (input, output) or the model reads the reason instead (tool_result). */
  z.object({ verdict: z.literal('block'), reason: z.string(), spend: GuardrailSpend.optional() }),
  /** A person decides (the question desk): `allow` lets the text through, anything else or no answer blocks it. */
  z.object({ verdict: z.literal('ask'), reason: z.string(), spend: GuardrailSpend.optional() }),
]);
export type GuardrailVerdict = z.infer<typeof GuardrailVerdict>;

/** A registered guardrail as the run sees it: no code, only where it checks. */
export const GuardrailSpec = z.object({
  name: GuardrailName,
  stage: GuardrailStage,
  description: z.string().max(1_000).optional(),
});
export type GuardrailSpec = z.infer<typeof GuardrailSpec>;

/** One text to check, named by the run (`task`, `answer`, or a tool call's id). */
export interface GuardrailSubject {
  id: string;
  text: string;
  /** For tool results: the tool that returned it. */
  toolName?: string;
}

/** One check point: every guardrail of one stage, over the point's texts, in one activity. */
export interface GuardrailCheckRequest {
  stage: GuardrailStage;
  names: string[];
  subjects: GuardrailSubject[];
  /** Who the run is, for checks that tell runs apart; never a secret. */
  run: { workflowId: string; agentName: string; tenant?: string };
}

/** One guardrail's word on one text, as the chain records it: no text, only the verdict and its reason. */
export interface GuardrailVote {
  guardrail: string;
  verdict: GuardrailVerdict['verdict'];
  reason?: string;
}

/**
 * The outcome of one text's checks: the guardrails ran in the order the run named them, each on
 * the text the previous left (a redaction carries on); the first block or ask stops the rest.
 */
export interface GuardrailOutcome {
  id: string;
  verdict: GuardrailVerdict['verdict'];
  /** The text after every redaction; absent unless some guardrail redacted. */
  text?: string;
  /** The guardrail whose block or ask decided, and why. */
  decidedBy?: string;
  reason?: string;
  votes: GuardrailVote[];
  /** What the guardrails that called a model spent on this text, summed; absent when none did. */
  spend?: CheckSpend;
}

/** Tokens and cost of a check point's model calls, as the run counts them. */
export interface CheckSpend {
  /** The one model the checks named, or `several models`; `guardrail` when none was named. */
  model: string;
  usage: TokenUsage;
  costUsd: number;
}

/** What the worker answers about names a run gives: their specs, or the names it has not registered. */
export type DescribedGuardrails =
  { found: true; specs: GuardrailSpec[] } | { found: false; unknown: string[]; known: string[] };

/** A reason cut to its limit, so a chatty check cannot grow the chain. */
export const boundedReason = (reason: string): string =>
  reason.length <= MAX_GUARDRAIL_REASON_CHARS ? reason : `${reason.slice(0, MAX_GUARDRAIL_REASON_CHARS - 1)}…`;

/**
 * What an `llm` step (and the model calls an auditor exports) shows in place of a reply that may
 * be the run's answer, in a run whose output guardrails check it: the synthesis shows the answer
 * once they passed it; a blocked one is shown nowhere.
 */
export const HELD_TEXT = '(held for the output guardrails: the answer, once checked, is the synthesis)';

/** Reported spends summed as the run counts them; undefined when none reported anything. */
export function sumSpends(spends: ReadonlyArray<GuardrailSpend | CheckSpend | undefined>): CheckSpend | undefined {
  const given = spends.filter((s): s is GuardrailSpend | CheckSpend => s !== undefined);
  if (!given.length) return undefined;
  const models = new Set(given.map((s) => s.model).filter((m): m is string => m !== undefined));
  let usage = zeroUsage();
  let costUsd = 0;
  for (const s of given) {
    usage = addUsage(
      usage,
      'usage' in s ? s.usage : { ...zeroUsage(), inputTokens: s.inputTokens ?? 0, outputTokens: s.outputTokens ?? 0 },
    );
    costUsd = addUsd(costUsd, s.costUsd ?? 0);
  }
  return { model: models.size === 1 ? [...models][0]! : models.size ? 'several models' : 'guardrail', usage, costUsd };
}
