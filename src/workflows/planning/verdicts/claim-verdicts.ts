import { MAX_CHECKED_CLAIMS, MAX_CLAIM_CHARS, type AnswerClaim } from '../../../domain';
import { foldText } from '../../../domain/text/answer-values';
import { redactSecretsInText } from '../../../domain/secrets/secret-patterns';
import type { ClaimJudgeReply } from './verdict-reader';

/** How much of the judge's reason for one claim the step keeps. */
const MAX_WHY_CHARS = 200;

type Verdict = ClaimJudgeReply['verdicts'][number];

/** The claims after the judge's verdicts, what its step says of each, and the steps it cited. */
export interface AppliedVerdicts {
  claims: AnswerClaim[];
  notes: string[];
  cited: Set<string>;
}

/** A claim with the judge's verdict on it, every earlier verdict cleared. */
function decided(claim: AnswerClaim, verdict: Verdict, judge: string): AnswerClaim {
  const { supportedBy: _s, given: _g, contradictedBy: _c, unchecked: _u, judgedBy: _j, ...rest } = claim;
  const by = { judgedBy: judge.slice(0, MAX_CLAIM_CHARS) };
  if (verdict.verdict === 'supported') return { ...rest, supportedBy: verdict.step!, ...by };
  if (verdict.verdict === 'contradicted') return { ...rest, contradictedBy: verdict.step!, ...by };
  return { ...rest, ...by };
}

/**
 * The judge's verdicts applied to the rules' claims (claim-judge.ts). A verdict names a listed
 * claim by number or quotes a statement of the answer the list missed; it may promote or demote.
 * Refused, with a note, and the rules' verdict kept: a number that names no claim, a quote the
 * answer does not hold, a supported or contradicted verdict whose step is not one of the run's
 * observations. A quoted statement inside a sentence the rules left unchecked settles that
 * sentence: the judge read it. Deterministic given the reply; bounded by MAX_CHECKED_CLAIMS.
 */
export function applyClaimVerdicts(
  answer: string,
  listed: readonly AnswerClaim[],
  verdicts: readonly Verdict[],
  observed: ReadonlySet<string>,
  judge: string,
  stepNumber: (stepId: string) => string,
): AppliedVerdicts {
  const claims: AnswerClaim[] = [...listed];
  const notes: string[] = [];
  const cited = new Set<string>();
  const added: AnswerClaim[] = [];
  const foldedAnswer = ` ${foldText(answer)} `;
  for (const v of verdicts) {
    const index = v.claim !== undefined ? v.claim - 1 : claims.findIndex((c) => foldText(c.text) === foldText(v.text!));
    if (v.claim !== undefined && claims[index] === undefined) {
      notes.push(`claim ${v.claim} refused: there is no such claim`);
      continue;
    }
    const said = JSON.stringify(v.claim !== undefined ? claims[index]!.text : v.text!);
    if (index < 0 && !foldedAnswer.includes(` ${foldText(v.text!)} `)) {
      notes.push(`${said} refused: the answer does not say it`);
      continue;
    }
    // A statement is a few words at least, and judged once.
    if (index < 0 && (foldText(v.text!).split(' ').length < 2 || added.some((a) => a.value === foldText(v.text!)))) {
      notes.push(`${said} refused: not a statement of its own`);
      continue;
    }
    if (v.verdict !== 'unsupported' && !observed.has(v.step!)) {
      notes.push(`${said} keeps its verdict: "${v.step!.slice(0, 64)}" is not an observation of this run`);
      continue;
    }
    if (index < 0) {
      if (claims.length + added.length >= MAX_CHECKED_CLAIMS) {
        notes.push(`${said} not recorded: the answer already has ${MAX_CHECKED_CLAIMS} claims`);
        continue;
      }
      const at = Math.max(0, answer.toLowerCase().indexOf(v.text!.toLowerCase()));
      added.push(decided({ kind: 'statement', text: v.text!, value: foldText(v.text!), at }, v, judge));
    }
    const before = index >= 0 ? claims[index]! : undefined;
    if (before) claims[index] = decided(before, v, judge);
    const reason = redactSecretsInText(v.why.trim()).slice(0, MAX_WHY_CHARS);
    // Overruling what the rules saw is said, with the step they saw it in.
    const overrules =
      before?.contradictedBy !== undefined && v.verdict !== 'contradicted'
        ? `, overruling the rules' contradiction by step ${stepNumber(before.contradictedBy)}`
        : '';
    const detail = `${reason ? ` (${reason})` : ''}${overrules}`;
    if (v.verdict === 'supported') notes.push(`${said} rests on step ${stepNumber(v.step!)}${detail}`);
    else if (v.verdict === 'contradicted')
      notes.push(`${said} is contradicted by step ${stepNumber(v.step!)}${detail}`);
    else notes.push(`${said} is unsupported${detail}`);
    if (v.step !== undefined && v.verdict !== 'unsupported') cited.add(v.step);
  }
  // An unchecked sentence the judge quoted from is settled by what it said of it.
  const settled = (c: AnswerClaim): boolean =>
    c.kind === 'statement' && c.unchecked === true && added.some((a) => a.at >= c.at && a.at < c.at + c.text.length);
  const all = [...claims.filter((c) => !settled(c)), ...added].sort((a, b) => a.at - b.at);
  return { claims: all.slice(0, MAX_CHECKED_CLAIMS), notes, cited };
}
