import { z } from 'zod';
import { MAX_CHECKED_CLAIMS, MAX_CLAIM_CHARS, MAX_LEARNING_CHARS, MAX_VERDICT_TEXT_CHARS } from '../../../domain';
import { readPlanReply } from '../plans/plan-reply';

/**
 * Strict readers of the observer's, the goal check's and the claim judge's replies: one JSON object of the asked
 * shape, its texts within the verdicts' bounds. Anything else is unreadable, with the reason,
 * and the caller records that as a visible step; a reply never fails a run.
 */

const ObserverReply = z.object({
  success: z.boolean(),
  learned: z.string().max(MAX_LEARNING_CHARS).default(''),
  unblocked: z.array(z.string().max(64)).max(30).default([]),
  adjustment: z.string().max(MAX_VERDICT_TEXT_CHARS).default(''),
});
export type ObserverReply = z.infer<typeof ObserverReply>;

const GoalCheckReply = z.object({
  met: z.boolean(),
  missing: z.string().max(MAX_VERDICT_TEXT_CHARS).default(''),
});
export type GoalCheckReply = z.infer<typeof GoalCheckReply>;

/**
 * The claim judge's reply: a verdict on numbered claims (`claim`) or on statements of the answer
 * the list missed (`text`, quoted from the answer), each supported, contradicted or unsupported;
 * supported and contradicted name the observation's step. A claim not named keeps the rules' verdict.
 */
const ClaimVerdict = z
  .object({
    claim: z.number().int().positive().optional(),
    text: z.string().min(3).max(MAX_CLAIM_CHARS).optional(),
    verdict: z.enum(['supported', 'contradicted', 'unsupported']),
    step: z.string().min(1).max(64).optional(),
    why: z.string().max(MAX_VERDICT_TEXT_CHARS).default(''),
  })
  .refine(
    (v) => (v.claim === undefined) !== (v.text === undefined),
    'name a claim by number or quote a statement, not both',
  )
  .refine(
    (v) => v.verdict === 'unsupported' || v.step !== undefined,
    'a supported or contradicted claim names its step',
  );
const ClaimJudgeReply = z.object({ verdicts: z.array(ClaimVerdict).max(MAX_CHECKED_CLAIMS) });
export type ClaimJudgeReply = z.infer<typeof ClaimJudgeReply>;

export type Read<T> = { ok: true; value: T } | { ok: false; problem: string };

export function readObserverReply(text: string): Read<ObserverReply> {
  return readShape(ObserverReply, text);
}

export function readGoalCheckReply(text: string): Read<GoalCheckReply> {
  return readShape(GoalCheckReply, text);
}

export function readClaimJudgeReply(text: string): Read<ClaimJudgeReply> {
  return readShape(ClaimJudgeReply, text);
}

function readShape<T>(schema: z.ZodType<T>, text: string): Read<T> {
  const json = readPlanReply(text);
  if (json === undefined) return { ok: false, problem: 'the reply holds no JSON object' };
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      problem: parsed.error.issues.map((i) => `${i.path.join('.') || 'reply'}: ${i.message}`).join('; '),
    };
  return { ok: true, value: parsed.data };
}
