/**
 * The checks of one claim each (claim-support.ts): a number against the observations of its
 * subject, a condition against theirs (of each subject it is said of), a conclusion against the
 * values observed of each subject it compares. Pure and sandbox-safe.
 */
import type { FoundClaim } from './answer-claims';
import { MAX_CLAIM_CHARS, type AnswerClaim } from './answer-grounding';
import { excludes, type ConditionClass } from './claim-conditions';
import type { FoundConclusion } from './claim-conclusions';
import type { ObservedNumber } from './claim-evidence-index';
import type { ClaimReader } from './claim-reader';
import { readNumberAt, unitOf } from '../text/answer-values';

/** What one checked claim says of its support, before it is cut to the schema. */
export type Checked = AnswerClaim;

/** "Tokyo", "New York": a folded name as views show it. */
function shownName(name: string): string {
  return name.replace(/(^|\s)\p{L}/gu, (c) => c.toUpperCase()).slice(0, MAX_CLAIM_CHARS);
}

/** A number claim, bound to its subject when its clause or sentence names one the observations know. */
export function checkNumber(reader: ClaimReader, claim: FoundClaim): Checked {
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
export function checkCondition(
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
export function checkConclusion(
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
