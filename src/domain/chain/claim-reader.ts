/**
 * One answer read against its evidence (claim-support.ts): the answer's clauses, each piece of
 * evidence indexed once (claim-evidence-index.ts), and the lookups the per-kind checks
 * (claim-checks.ts) make: whom a claim may be said of, the records of those subjects, and whether
 * a record or a source states a claim. Pure and sandbox-safe.
 */
import { claimKey, type FoundClaim } from './answer-claims';
import type { AnswerClaim, ClaimGiven } from './answer-grounding';
import { indexEvidence, type EvidenceIndex, type EvidenceRecord } from './claim-evidence-index';
import { KnownFacts } from './claim-statements';
import { clauseAt, readClauses, sameSubject, subjectCandidates, type Clause } from './claim-subjects';
import { readNumberAt, sameNumber, type NumberValue } from '../text/answer-values';

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
export const MAX_COMPARED_SUBJECTS = 50;

interface Indexed {
  stepId?: string;
  given?: ClaimGiven;
  idx: EvidenceIndex;
}

/** A record of an observation with the step it came from. */
export interface Found {
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

/** The reader of one answer against its evidence. */
export class ClaimReader {
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
    for (const { idx } of [...this.observed, ...this.given])
      for (const fact of idx.facts) known.add(fact.path, fact.said);
    return known;
  }

  anyConditions(): boolean {
    return this.observed.some(({ idx }) => idx.records.some((r) => r.conditions.size > 0));
  }
}
