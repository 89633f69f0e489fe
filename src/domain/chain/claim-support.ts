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
import { extractClaims, claimKey, MAX_CHECKED_ANSWER_CHARS, type FoundClaim } from './answer-claims';
import {
  MAX_CHECKED_CLAIMS,
  MAX_CLAIM_CHARS,
  type AnswerClaim,
  type ClaimCheck,
  type ClaimGiven,
} from './answer-grounding';
import { excludes, findConditions, type ConditionClass } from './claim-conditions';
import { findConclusions, type FoundConclusion } from './claim-conclusions';
import { indexEvidence, type EvidenceIndex, type EvidenceRecord, type ObservedNumber } from './claim-evidence-index';
import { KnownFacts, uncheckedStatements } from './claim-statements';
import { clauseAt, readClauses, sameSubject, subjectCandidates, type Clause } from './claim-subjects';
import { readNumberAt, sameNumber, unitOf, type NumberValue } from '../text/answer-values';

export { MAX_EVIDENCE_CHARS, MAX_EVIDENCE_VALUES } from './claim-evidence-index';

/** What a claim may rest on: an observation step's result, or what the run was given. */
export type ClaimEvidence =
  | {
      stepId: string;
      value: unknown;
      /** The strings the call was made with (its arguments): what the result is about when it does not say. */
      about?: readonly string[];
      /** Claims this evidence states without support of its own (a sub-agent's faults): they support nothing. */
      unsupported?: readonly string[];
    }
  | { given: ClaimGiven; value: unknown };

/** The most subjects a conclusion is compared across when the answer names none. */
const MAX_COMPARED_SUBJECTS = 50;

interface Indexed {
  stepId?: string;
  given?: ClaimGiven;
  idx: EvidenceIndex;
}

/** A record of an observation with the step it came from. */
interface Found {
  stepId: string;
  record: EvidenceRecord;
}

/** Whether the evidence states the claim anywhere (the units the run was given count for bare numbers). */
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
    default:
      return false;
  }
}

/**
 * A claimed number against an observed one. A bare observed number stands for the claim's unit
 * when the evidence or what the run was given names that unit, or the evidence names no other unit
 * but percent (a weather tool's `21` for "21 °C" beside a humidity in %); a scaled claim ("68
 * million") also matches its bare figure.
 */
function numberStated(
  claim: NumberValue,
  seen: NumberValue,
  idx: EvidenceIndex,
  givenUnits: ReadonlySet<string>,
): boolean {
  if (claim.unit !== undefined && seen.unit === undefined) {
    // A bare figure stands for the claim's unit unless the evidence names another unit (a percent
    // beside it, a humidity, says nothing of what the other figures measure).
    const rival = [...idx.units].some((u) => u !== claim.unit && u !== '%');
    const named = idx.units.has(claim.unit) || givenUnits.has(claim.unit) || !rival;
    if (!named) return false;
  }
  if (sameNumber(claim, seen)) return true;
  if (claim.mantissa === undefined || seen.unit !== undefined) return false;
  const scale = claim.value / claim.mantissa;
  return sameNumber({ ...claim, value: claim.mantissa, precision: claim.precision / scale }, seen);
}

/** What one checked claim says of its support, before it is cut to the schema. */
type Checked = AnswerClaim;

/** The reader of one answer against its evidence. */
class ClaimReader {
  readonly clauses: Clause[];
  private readonly observed: Indexed[];
  private readonly given: Indexed[];
  private readonly givenUnits: Set<string>;

  constructor(
    readonly text: string,
    evidence: readonly ClaimEvidence[],
  ) {
    this.clauses = readClauses(text);
    const indexed: Indexed[] = evidence.map((e) =>
      'stepId' in e
        ? { stepId: e.stepId, idx: indexEvidence(e.value, e.about ?? [], e.unsupported ?? []) }
        : { given: e.given, idx: indexEvidence(e.value) },
    );
    this.observed = indexed.filter((i) => i.stepId !== undefined);
    this.given = indexed.filter((i) => i.given !== undefined);
    this.givenUnits = new Set(this.given.flatMap(({ idx }) => [...idx.units]));
  }

  /** The folded names a claim at `at` may be said of, most likely first (claim-subjects.ts). */
  candidates(at: number): string[][] {
    const clause = clauseAt(this.clauses, at);
    return clause ? subjectCandidates(this.text, clause, at) : [];
  }

  /** The names the clause at `at` states itself. */
  clauseNames(at: number): string[] {
    return clauseAt(this.clauses, at)?.names ?? [];
  }

  negated(at: number): boolean {
    return clauseAt(this.clauses, at)?.negated ?? false;
  }

  /** The observations' records said of one of `names`, or of nothing named (which may be of anyone). */
  records(names: readonly string[], has: (r: EvidenceRecord) => boolean): { named: Found[]; unnamed: Found[] } {
    const named: Found[] = [];
    const unnamed: Found[] = [];
    for (const { stepId, idx } of this.observed) {
      for (const record of idx.records) {
        if (!has(record)) continue;
        if (record.subjects.size === 0) unnamed.push({ stepId: stepId!, record });
        else if (sameSubject(names, record.subjects)) named.push({ stepId: stepId!, record });
      }
    }
    return { named, unnamed };
  }

  /** The first observation, else given source, that states the claim anywhere (how unbound claims are read). */
  anywhere(claim: FoundClaim): Pick<AnswerClaim, 'supportedBy' | 'given'> {
    const hit = this.observed.find(({ idx }) => states(idx, claim, this.givenUnits));
    if (hit) return { supportedBy: hit.stepId! };
    const given = this.given.find(({ idx }) => states(idx, claim, this.givenUnits));
    return given ? { given: given.given! } : {};
  }

  /** Only a given source (the task, the context, a person) that states the claim. */
  fromGiven(claim: FoundClaim): Pick<AnswerClaim, 'given'> {
    const given = this.given.find(({ idx }) => states(idx, claim, this.givenUnits));
    return given ? { given: given.given! } : {};
  }

  /** Whether a record states the claimed number. */
  stated(claim: NumberValue, found: Found): boolean {
    const idx = this.observed.find((o) => o.stepId === found.stepId)!.idx;
    return found.record.numbers.some((e) => numberStated(claim, e, idx, this.givenUnits));
  }

  excluded(stepId: string, claim: FoundClaim): boolean {
    return this.observed.find((o) => o.stepId === stepId)?.idx.excluded.has(claimKey(claim.kind, claim.value)) ?? false;
  }

  /** The subjects the observations' records are about, each once (bounded by the records). */
  observedSubjects(): string[] {
    const all = new Set<string>();
    for (const { idx } of this.observed) for (const r of idx.records) for (const s of r.subjects) all.add(s);
    return [...all].slice(0, MAX_COMPARED_SUBJECTS);
  }

  /** Every fact the sources state, indexed by word: what an answer's statements may restate. */
  knownFacts(): KnownFacts {
    const known = new KnownFacts();
    for (const { idx } of [...this.observed, ...this.given]) for (const fact of idx.facts) known.add(fact);
    return known;
  }

  anyConditions(): boolean {
    return this.observed.some(({ idx }) => idx.records.some((r) => r.conditions.size > 0));
  }
}

/** "Tokyo", "New York": a folded name as views show it. */
function shownName(name: string): string {
  return name.replace(/(^|\s)\p{L}/gu, (c) => c.toUpperCase()).slice(0, MAX_CLAIM_CHARS);
}

/** A number claim, bound to its subject when its clause or sentence names one the observations know. */
function checkNumber(reader: ClaimReader, claim: FoundClaim): Checked {
  const n = readNumberAt(claim.text, 0);
  const negated = reader.negated(claim.at);
  const candidates = reader.candidates(claim.at);
  if (n === undefined) return { ...claim };
  for (const names of candidates) {
    const { named, unnamed } = reader.records(names, (r) => r.numbers.length > 0);
    if (named.length === 0 && names !== candidates.at(-1)) continue;
    const about = shownName(names[0]!);
    const hit = [...named, ...unnamed].find((f) => !reader.excluded(f.stepId, claim) && reader.stated(n, f));
    if (negated) {
      return hit && named.includes(hit)
        ? { ...claim, about, contradictedBy: hit.stepId }
        : { ...claim, about, unchecked: true };
    }
    if (hit) return { ...claim, about, supportedBy: hit.stepId };
    return { ...claim, about, ...reader.fromGiven(claim) };
  }
  if (negated) {
    const support = reader.anywhere(claim);
    return support.supportedBy !== undefined
      ? { ...claim, contradictedBy: support.supportedBy }
      : { ...claim, unchecked: true };
  }
  return { ...claim, ...reader.anywhere(claim) };
}

/** A condition: supported by the subject's observation that states its class, contradicted by one that excludes it. */
function checkCondition(
  reader: ClaimReader,
  found: { text: string; cls: ConditionClass; at: number; denied: boolean },
): Checked {
  const claim: FoundClaim = {
    kind: 'condition',
    text: found.text,
    value: found.denied ? `not ${found.cls}` : found.cls,
    at: found.at,
  };
  // "Both Paris and Tokyo are sunny" says it of each name: any one's observation may contradict it.
  const own = reader.clauseNames(found.at);
  const groups = own.length >= 2 ? own.map((n) => [n]) : [];
  if (groups.length > 0) {
    const verdicts = groups.map((names) => judgeCondition(reader, found, names));
    const contradicted = verdicts.find((v) => v?.contradictedBy !== undefined);
    if (contradicted) return { ...claim, ...contradicted };
    if (verdicts.every((v) => v?.supportedBy !== undefined))
      return {
        ...claim,
        about: own.map(shownName).join(', ').slice(0, MAX_CLAIM_CHARS),
        supportedBy: verdicts[0]!.supportedBy!,
      };
    return { ...claim, about: own.map(shownName).join(', ').slice(0, MAX_CLAIM_CHARS), unchecked: true };
  }
  for (const names of [...reader.candidates(found.at), []]) {
    const verdict = judgeCondition(reader, found, names);
    if (verdict) return { ...claim, ...verdict };
  }
  return { ...claim, unchecked: true };
}

/** A condition against the observations of `names` (none: the unnamed ones); undefined when none reports a condition. */
function judgeCondition(
  reader: ClaimReader,
  found: { cls: ConditionClass; denied: boolean },
  names: readonly string[],
): Pick<AnswerClaim, 'about' | 'supportedBy' | 'contradictedBy' | 'unchecked'> | undefined {
  const { named, unnamed } = reader.records(names, (r) => r.conditions.size > 0);
  const pool = names.length === 0 ? unnamed : named;
  if (pool.length === 0) return undefined;
  const about = names.length > 0 ? { about: shownName(names[0]!) } : {};
  const same = pool.find((f) => f.record.conditions.has(found.cls));
  const other = pool.find((f) => [...f.record.conditions].some((c) => excludes(c, found.cls)));
  const [backs, denies] = found.denied ? [other, same] : [same, other];
  if (backs) return { ...about, supportedBy: backs.stepId };
  if (denies) return { ...about, contradictedBy: denies.stepId };
  return { ...about, unchecked: true };
}

/** The value observed of one subject for what a conclusion compares, in its base unit, and its step. */
function valueOf(
  reader: ClaimReader,
  name: string,
  conclusion: FoundConclusion,
  dims: ReadonlySet<string>,
): { value: number; stepId: string } | undefined {
  const pick = (n: ObservedNumber): boolean => {
    const dim = n.unit === undefined ? undefined : unitOf(n.unit)?.dim;
    if (conclusion.quantity === 'temperature')
      return (
        (dim === 'temperature' && (n.key === undefined || /temp/i.test(n.key))) ||
        (dim === undefined && /temp/i.test(n.key ?? ''))
      );
    if (conclusion.quantity === 'price')
      return dim?.startsWith('currency:') === true || /price|cost|fare|amount/i.test(n.key ?? '');
    return dim !== undefined && dims.has(dim);
  };
  const { named } = reader.records([name], (r) => r.numbers.some(pick));
  const first = named[0];
  if (!first) return undefined;
  const n = first.record.numbers.find(pick)!;
  const info = n.unit === undefined ? undefined : unitOf(n.unit);
  return { value: info ? n.value * info.factor + (info.offset ?? 0) : n.value, stepId: first.stepId };
}

/** A conclusion, checked against the values observed of each subject it compares; and the difference it implies. */
function checkConclusion(
  reader: ClaimReader,
  conclusion: FoundConclusion,
  answerNames: readonly string[],
  dims: ReadonlySet<string>,
): { claim: Checked; spread?: { value: number; stepId: string } } {
  const claim: FoundClaim = {
    kind: 'conclusion',
    text: conclusion.text,
    value: conclusion.text.toLowerCase().slice(0, MAX_CLAIM_CHARS),
    at: conclusion.at,
  };
  const about = { about: shownName(conclusion.winner[0]!) };
  const winner = conclusion.winner
    .map((w) => ({ name: w, seen: valueOf(reader, w, conclusion, dims) }))
    .find((w) => w.seen);
  const valued = (names: readonly string[]) =>
    names
      .filter((n) => !conclusion.winner.includes(n))
      .flatMap((name) => {
        const seen = valueOf(reader, name, conclusion, dims);
        return seen ? [{ name, seen }] : [];
      });
  // Whom the winner beats: those the answer names ("than Paris"), else the answer's other
  // subjects, else every subject observed ("Paris is the colder one" after two readings).
  const named = valued(conclusion.losers.length > 0 ? conclusion.losers : answerNames);
  const rivals = named.length > 0 || conclusion.losers.length > 0 ? named : valued(reader.observedSubjects());
  if (!winner?.seen || rivals.length === 0) return { claim: { ...claim, ...about, unchecked: true } };
  const better = (a: number, b: number) => (conclusion.most ? a > b : a < b);
  const beaten = rivals.find((r) => !better(winner.seen!.value, r.seen.value));
  const values = [winner.seen.value, ...rivals.map((r) => r.seen.value)];
  const spread = { value: Math.max(...values) - Math.min(...values), stepId: winner.seen.stepId };
  // "Tokyo isn't warmer than Paris" denies the comparison: it holds when the winner did not win.
  if (reader.negated(conclusion.at))
    return beaten
      ? { claim: { ...claim, ...about, supportedBy: beaten.seen.stepId } }
      : { claim: { ...claim, ...about, contradictedBy: winner.seen.stepId } };
  return beaten
    ? { claim: { ...claim, ...about, contradictedBy: beaten.seen.stepId } }
    : { claim: { ...claim, ...about, supportedBy: winner.seen.stepId }, spread };
}

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
  const known = reader.knownFacts();
  for (const s of uncheckedStatements(text, clauses, claimed, known, MAX_CLAIM_CHARS))
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
