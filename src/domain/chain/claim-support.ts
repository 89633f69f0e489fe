/**
 * Which observation supports each claim of an answer (docs/concepts.md, "Grounded answers"): the
 * deterministic half of grounding. Each piece of evidence (an observation's recorded result, or
 * what the task, the context or a person gave) is indexed once — its numbers, units, dates,
 * verdicts and folded text — and each claim takes the oldest observation that states it, else
 * what the run was given, else nothing. Pure and sandbox-safe.
 */
import { extractClaims, claimKey, type FoundClaim } from './answer-claims';
import { MAX_CLAIM_CHARS, type AnswerClaim, type ClaimCheck, type ClaimGiven } from './answer-grounding';
import {
  foldText,
  readDates,
  readNumberAt,
  readNumbers,
  readVerdict,
  sameNumber,
  unitSymbol,
  type NumberValue,
} from '../text/answer-values';

/** How much text of one piece of evidence is read (results are already bounded by the run). */
export const MAX_EVIDENCE_CHARS = 64_000;
/** How many JSON values of one piece of evidence are walked. */
export const MAX_EVIDENCE_VALUES = 10_000;

/** What a claim may rest on: an observation step's result, or what the run was given. */
export type ClaimEvidence =
  | {
      stepId: string;
      value: unknown;
      /** Claims this evidence states without support of its own (a partly grounded sub-agent's): they support nothing. */
      unsupported?: readonly string[];
    }
  | { given: ClaimGiven; value: unknown };

interface EvidenceIndex {
  numbers: NumberValue[];
  /** Canonical unit symbols the evidence names anywhere ("mi", "°C", "USD"). */
  units: Set<string>;
  dates: string[];
  verdicts: Set<'yes' | 'no'>;
  /** Folded text, padded with spaces, for whole-word matches. */
  text: string;
  excluded: Set<string>;
}

/** Decimal places of a JSON number as written ("3.107" → 3). */
function precisionOf(n: number): number {
  const shown = String(n);
  const dot = shown.indexOf('.');
  return dot < 0 || shown.includes('e') ? 1 : 10 ** -(shown.length - dot - 1);
}

/** The canonical unit a short string or key part names ("mi", "USD", "C", "celsius"), if any. */
function unitWord(word: string): string | undefined {
  if (word === 'C' || word === 'c') return '°C';
  if (word === 'F' || word === 'f') return '°F';
  if (word === '%') return '%';
  return unitSymbol(word) ?? unitSymbol(word.toUpperCase());
}

function index(value: unknown, unsupported: readonly string[] = []): EvidenceIndex {
  const idx: EvidenceIndex = {
    numbers: [],
    units: new Set(),
    dates: [],
    verdicts: new Set(),
    text: '',
    excluded: new Set(),
  };
  const texts: string[] = [];
  let chars = 0;
  let values = 0;
  const mention = (symbol: string | undefined): void => {
    if (symbol === undefined) return;
    idx.units.add(symbol);
  };
  const readText = (text: string, asKey: boolean): void => {
    if (chars >= MAX_EVIDENCE_CHARS) return;
    const cut = text.slice(0, MAX_EVIDENCE_CHARS - chars);
    chars += cut.length + 1;
    texts.push(cut);
    // Key parts name units freely ("temp_c", "distance_km"); prose only by words of two letters or more.
    for (const part of cut.split(/[^\p{L}%]+/u)) {
      if (asKey) mention(unitWord(part));
      else if (part.length >= 2) mention(unitSymbol(part));
    }
    if (!asKey && cut.trim().length <= 12) mention(unitWord(cut.trim()));
    for (const n of readNumbers(cut)) {
      idx.numbers.push(n);
      mention(n.unit);
    }
    for (const d of readDates(cut)) idx.dates.push(d.iso);
    const verdict = readVerdict(cut);
    if (verdict && cut.trim().length <= 12) idx.verdicts.add(verdict);
  };
  const walk = (v: unknown, depth: number): void => {
    if (++values > MAX_EVIDENCE_VALUES || depth > 32) return;
    if (typeof v === 'string') readText(v, false);
    else if (typeof v === 'boolean') idx.verdicts.add(v ? 'yes' : 'no');
    else if (typeof v === 'number' && Number.isFinite(v)) idx.numbers.push(bare(v));
    else if (Array.isArray(v)) for (const item of v) walk(item, depth + 1);
    else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      // A sibling `unit` or `currency` field gives this object's bare numbers their unit.
      const named = entries.find(([k, u]) => /^(unit|units|currency|symbol)$/i.test(k) && typeof u === 'string');
      const siblingUnit = named ? unitWord(String(named[1]).trim()) : undefined;
      for (const [k, item] of entries) {
        readText(k.split('_').join(' '), true);
        if (siblingUnit !== undefined && typeof item === 'number' && Number.isFinite(item))
          idx.numbers.push({ ...bare(item), unit: siblingUnit });
        else walk(item, depth + 1);
      }
    }
  };
  walk(value, 0);
  idx.text = ` ${foldText(texts.join(' \n '))} `;
  for (const text of unsupported)
    for (const c of extractClaims(text).claims) idx.excluded.add(claimKey(c.kind, c.value));
  return idx;
}

function bare(v: number): NumberValue {
  return { value: v, precision: precisionOf(v), text: String(v), at: 0, end: 0 };
}

/** Whether the evidence states the claim (the units the run was given count for bare numbers). */
function states(idx: EvidenceIndex, claim: FoundClaim, givenUnits: ReadonlySet<string>): boolean {
  if (idx.excluded.has(claimKey(claim.kind, claim.value))) return false;
  switch (claim.kind) {
    case 'number': {
      const n = readNumberAt(claim.text, 0);
      return n !== undefined && idx.numbers.some((e) => numberStated(n, e, idx, givenUnits));
    }
    case 'date':
      return idx.dates.some((d) => d.startsWith(claim.value));
    case 'quote':
    case 'entity':
      return claim.value.length > 0 && idx.text.includes(` ${claim.value} `);
    case 'verdict':
      return idx.verdicts.has(claim.value as 'yes' | 'no');
  }
}

/**
 * A claimed number against an observed one. A bare observed number stands for the claim's unit
 * when the evidence or what the run was given names that unit, or the evidence names no unit at
 * all (a weather tool's `21` for "21 °C"); a scaled claim ("68 million") also matches its bare figure.
 */
function numberStated(
  claim: NumberValue,
  seen: NumberValue,
  idx: EvidenceIndex,
  givenUnits: ReadonlySet<string>,
): boolean {
  if (claim.unit !== undefined && seen.unit === undefined) {
    const named = idx.units.has(claim.unit) || givenUnits.has(claim.unit) || idx.units.size === 0;
    if (!named) return false;
  }
  if (sameNumber(claim, seen)) return true;
  if (claim.mantissa === undefined || seen.unit !== undefined) return false;
  const scale = claim.value / claim.mantissa;
  return sameNumber({ ...claim, value: claim.mantissa, precision: claim.precision / scale }, seen);
}

/**
 * Each claim with what supports it: the oldest observation that states it, else the first given
 * source that does, else nothing. A verdict ("Yes, …") no observation states outright is
 * supported when every other claim of the answer is (by the first of them): the rules cannot
 * read the reasoning from facts to verdict, only that its facts stand.
 */
export function supportClaims(claims: readonly FoundClaim[], evidence: readonly ClaimEvidence[]): AnswerClaim[] {
  const indexed = evidence.map((e) => ({ e, idx: index(e.value, 'stepId' in e ? e.unsupported : []) }));
  const givenUnits = new Set(indexed.filter(({ e }) => 'given' in e).flatMap(({ idx }) => [...idx.units]));
  const supported: AnswerClaim[] = claims.map((claim) => {
    const hit = indexed.find(({ e, idx }) => 'stepId' in e && states(idx, claim, givenUnits));
    if (hit && 'stepId' in hit.e) return { ...claim, supportedBy: hit.e.stepId };
    const given = indexed.find(({ e, idx }) => 'given' in e && states(idx, claim, givenUnits));
    if (given && 'given' in given.e) return { ...claim, given: given.e.given };
    return { ...claim };
  });
  const others = supported.filter((c) => c.kind !== 'verdict');
  const first = others[0];
  if (first && others.every(isSupported)) {
    return supported.map((c) =>
      c.kind !== 'verdict' || isSupported(c)
        ? c
        : { ...c, ...(first.supportedBy !== undefined ? { supportedBy: first.supportedBy } : { given: first.given! }) },
    );
  }
  return supported;
}

/** Whether a checked claim has something behind it: an observation, or the task, context or a person. */
export function isSupported(claim: AnswerClaim): boolean {
  return claim.supportedBy !== undefined || claim.given !== undefined;
}

/** The rules' claim check of an answer against the evidence (bounded by MAX_CHECKED_CLAIMS). */
export function checkClaims(answer: string, evidence: readonly ClaimEvidence[]): ClaimCheck {
  const { claims, omitted } = extractClaims(answer);
  const checked = supportClaims(claims, evidence);
  return {
    method: 'rules',
    claims: checked,
    unsupported: checked.filter((c) => !isSupported(c)).map((c) => c.text.slice(0, MAX_CLAIM_CHARS)),
    ...(omitted > 0 ? { omitted } : {}),
  };
}
