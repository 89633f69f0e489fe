/**
 * Which observation supports, or contradicts, each claim of an answer (docs/concepts.md,
 * "Grounded answers"): the deterministic half of grounding. Each piece of evidence (an
 * observation's recorded result, or what the task, the context or a person gave) is indexed once
 * (claim-evidence-index.ts). A claim said of a subject ("Tokyo is 12°C") rests only on what was
 * observed of that subject; a denied one ("Paris is not 18 °C") is contradicted by an observation
 * that states it; a condition ("sunny") is contradicted by one that excludes it ("light rain"); a
 * conclusion ("Paris is the warmer") is checked against the values observed of each subject; and
 * what none of this can read is named as unchecked. Pure and sandbox-safe.
 */
import { extractClaims, MAX_CHECKED_ANSWER_CHARS } from './answer-claims';
import { MAX_CHECKED_CLAIMS, MAX_CLAIM_CHARS, type AnswerClaim, type ClaimCheck } from './answer-grounding';
import { checkCondition, checkConclusion, checkNumber, type Checked } from './claim-checks';
import { findConditions } from './claim-conditions';
import { findConclusions } from './claim-conclusions';
import { ClaimReader, MAX_COMPARED_SUBJECTS, type ClaimEvidence } from './claim-reader';
import { uncheckedStatements } from './claim-statements';
import { clauseAt } from './claim-subjects';
import { readNumberAt, unitOf } from '../text/answer-values';

export type { ClaimEvidence } from './claim-reader';
export { MAX_EVIDENCE_CHARS, MAX_EVIDENCE_VALUES } from './claim-evidence-index';

/**
 * Each claim with what supports or contradicts it. A verdict ("Yes, …") no observation states
 * outright is supported when every other claim of the answer is (by the first of them): the
 * rules cannot read the reasoning from facts to verdict, only that its facts stand.
 */
function readClaims(reader: ClaimReader): { claims: Checked[]; omitted: number } {
  const { text, clauses } = reader;
  const scope = (at: number) => (clauseAt(clauses, at)?.names ?? []).join('|');
  const extracted = extractClaims(text, scope);
  const claims: Checked[] = extracted.claims.map((claim) => {
    // Dates, quotes, names and verdicts are read anywhere in the sources, as written.
    if (claim.kind === 'number') return checkNumber(reader, claim);
    return { ...claim, ...reader.anywhere(claim) };
  });
  if (reader.anyConditions()) {
    const seen = new Set<string>();
    for (const found of findConditions(text, clauses).slice(0, MAX_CHECKED_CLAIMS)) {
      const checked = checkCondition(reader, found);
      const key = `${checked.value}@${checked.about ?? ''}`;
      if (!seen.has(key)) claims.push(checked);
      seen.add(key);
    }
  }
  const answerNames = [...new Set(clauses.flatMap((c) => c.names))].slice(0, MAX_COMPARED_SUBJECTS);
  const sentenceDims = (sentence: number): Set<string> => {
    const dims = new Set<string>();
    for (const c of claims) {
      if (c.kind !== 'number' || clauseAt(clauses, c.at)?.sentence !== sentence) continue;
      const u = readNumberAt(c.text, 0)?.unit;
      const dim = u === undefined ? undefined : unitOf(u)?.dim;
      if (dim !== undefined) dims.add(dim);
    }
    return dims;
  };
  for (const conclusion of findConclusions(text, clauses).slice(0, MAX_CHECKED_CLAIMS)) {
    const { claim, spread } = checkConclusion(reader, conclusion, answerNames, sentenceDims(conclusion.sentence));
    claims.push(claim);
    if (spread === undefined) continue;
    // "Tokyo is the warmest, by 9 degrees": a figure of the same sentence nothing states may be the difference.
    for (let i = 0; i < claims.length; i++) {
      const c = claims[i]!;
      if (c.kind !== 'number' || isSupported(c) || c.contradictedBy !== undefined) continue;
      if (clauseAt(clauses, c.at)?.sentence !== conclusion.sentence) continue;
      const n = readNumberAt(c.text, 0);
      if (n && Math.abs(n.value - spread.value) <= n.precision / 2 + 1e-9) {
        const { about: _about, unchecked: _unchecked, ...rest } = c;
        claims[i] = { ...rest, supportedBy: spread.stepId };
      }
    }
  }
  const claimed = claims.map((c) => c.at);
  for (const s of uncheckedStatements(text, clauses, claimed, () => reader.knownFacts(), MAX_CLAIM_CHARS))
    claims.push({
      kind: 'statement',
      text: s.text,
      value: s.text.toLowerCase().slice(0, MAX_CLAIM_CHARS),
      at: s.at,
      unchecked: true,
    });
  claims.sort((a, b) => a.at - b.at);
  const others = claims.filter((c) => c.kind !== 'verdict');
  const first = others[0];
  if (first && others.every(isSupported)) {
    for (let i = 0; i < claims.length; i++) {
      const c = claims[i]!;
      if (c.kind === 'verdict' && !isSupported(c))
        claims[i] = {
          ...c,
          ...(first.supportedBy !== undefined ? { supportedBy: first.supportedBy } : { given: first.given! }),
        };
    }
  }
  const omitted = extracted.omitted + Math.max(0, claims.length - MAX_CHECKED_CLAIMS);
  return { claims: claims.slice(0, MAX_CHECKED_CLAIMS), omitted };
}

/** Whether a checked claim has something behind it: an observation, or the task, context or a person. */
export function isSupported(claim: AnswerClaim): boolean {
  return claim.contradictedBy === undefined && (claim.supportedBy !== undefined || claim.given !== undefined);
}

/** How a claim is named in a one-line list of faults: its text, and what it was said of. */
export function faultName(claim: AnswerClaim): string {
  const named = claim.about !== undefined && !claim.text.toLowerCase().includes(claim.about.toLowerCase());
  return named ? `${claim.text} (${claim.about})` : claim.text;
}

/** The lists of faults of a set of checked claims. */
export function faultLists(
  claims: readonly AnswerClaim[],
): Pick<ClaimCheck, 'unsupported' | 'contradicted' | 'unchecked'> {
  const contradicted = claims.filter((c) => c.contradictedBy !== undefined).map(faultName);
  const unchecked = claims.filter((c) => c.contradictedBy === undefined && c.unchecked).map(faultName);
  const unsupported = claims
    .filter((c) => !isSupported(c) && c.contradictedBy === undefined && !c.unchecked)
    .map(faultName);
  return {
    unsupported,
    ...(contradicted.length > 0 ? { contradicted } : {}),
    ...(unchecked.length > 0 ? { unchecked } : {}),
  };
}

/** The rules' claim check of an answer against the evidence (bounded by MAX_CHECKED_CLAIMS). */
export function checkClaims(answer: string, evidence: readonly ClaimEvidence[]): ClaimCheck {
  const reader = new ClaimReader(answer.slice(0, MAX_CHECKED_ANSWER_CHARS), evidence);
  const { claims, omitted } = readClaims(reader);
  return { method: 'rules', claims, ...faultLists(claims), ...(omitted > 0 ? { omitted } : {}) };
}
