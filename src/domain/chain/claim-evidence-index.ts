/**
 * One piece of evidence read once for the claim check (claim-support.ts): everything it states
 * (numbers, units, dates, verdicts, folded text), and the same split into records, each with the
 * subjects it is about. A JSON object is a record about the names among its short string values
 * (and its parents', and the call's arguments'): `{"location":"Paris","temperature":12}` says 12
 * of Paris. Prose is split into clauses the way answers are (claim-subjects.ts). Bounded by
 * MAX_EVIDENCE_CHARS and MAX_EVIDENCE_VALUES; pure and sandbox-safe.
 */
import { extractClaims, claimKey } from './answer-claims';
import { conditionsIn, type ConditionClass } from './claim-conditions';
import { readClauses } from './claim-subjects';
import { foldText, readDates, readNumbers, readVerdict, unitSymbol, type NumberValue } from '../text/answer-values';

/** How much text of one piece of evidence is read (results are already bounded by the run). */
export const MAX_EVIDENCE_CHARS = 64_000;
/** How many JSON values of one piece of evidence are walked. */
export const MAX_EVIDENCE_VALUES = 10_000;
/** A string value this short can name what its object is about ("Paris", "ACME Corp"). */
const MAX_SUBJECT_CHARS = 60;

/** A number as observed, with the key it was recorded under ("temperature"), when it had one. */
export type ObservedNumber = NumberValue & { key?: string };

/** What one record of the evidence says, and of whom (no subjects: of nothing named, so of anything). */
export interface EvidenceRecord {
  subjects: Set<string>;
  numbers: ObservedNumber[];
  conditions: Set<ConditionClass>;
}

export interface EvidenceIndex {
  numbers: ObservedNumber[];
  /** Canonical unit symbols the evidence names anywhere ("mi", "°C", "USD"). */
  units: Set<string>;
  dates: string[];
  verdicts: Set<'yes' | 'no'>;
  /** Folded text, padded with spaces, for whole-word matches. */
  text: string;
  excluded: Set<string>;
  records: EvidenceRecord[];
  /** Each fact it states as a short text: a value with its key path, a clause of prose (claim-statements.ts). */
  facts: Array<{ path: string; said: string }>;
}

/** Decimal places of a JSON number as written ("3.107" → 3). */
function precisionOf(n: number): number {
  const shown = String(n);
  const dot = shown.indexOf('.');
  return dot < 0 || shown.includes('e') ? 1 : 10 ** -(shown.length - dot - 1);
}

export function bare(v: number): NumberValue {
  return { value: v, precision: precisionOf(v), text: String(v), at: 0, end: 0 };
}

/** The canonical unit a short string or key part names ("mi", "USD", "C", "celsius"), if any. */
export function unitWord(word: string): string | undefined {
  if (word === 'C' || word === 'c') return '°C';
  if (word === 'F' || word === 'f') return '°F';
  if (word === '%') return '%';
  return unitSymbol(word) ?? unitSymbol(word.toUpperCase());
}

/** How long a key path grows before deeper keys are left out of it. */
const MAX_PATH_CHARS = 200;
/** Keys of a child object that says where or what its parent is about. */
const SUBJECT_KEYS =
  /^(location|place|city|station|site|country|region|subject|entity|account|customer|user|company|product|item|name|symbol|ticker)$/i;

/** The subject names one entry of an object gives it: a short string's, or an identifying child object's. */
function subjectNamesOf(key: string, value: unknown): string[] {
  if (typeof value === 'string') return value.length <= MAX_SUBJECT_CHARS ? namesOf(value) : [];
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !SUBJECT_KEYS.test(key)) return [];
  return Object.values(value).flatMap((v) =>
    typeof v === 'string' && v.length <= MAX_SUBJECT_CHARS ? namesOf(v) : [],
  );
}

/** The unit a number's own key names ("temp_f" → °F, "distance_km" → km, "changePercent" → %, "humidity" → %). */
function unitOfKey(key: string): string | undefined {
  if (/humidity/i.test(key)) return '%';
  const parts = key.split(/[_\-\s]|(?<=[a-z])(?=[A-Z])/u).filter((p) => p !== '');
  if (parts.length < 2) return undefined;
  const last = parts.at(-1)!;
  if (/^(pct|percent|percentage)$/i.test(last)) return '%';
  return unitWord(last);
}

/** The names a short string states ("Paris", "New York"), folded. */
function namesOf(text: string): string[] {
  return readClauses(text).flatMap((c) => c.names);
}

/**
 * Reads `value`; `about` are strings the call was made with (its arguments), whose names every
 * record is about; `unsupported` are claims a sub-agent could not stand behind, which support nothing.
 */
export function indexEvidence(
  value: unknown,
  about: readonly string[] = [],
  unsupported: readonly string[] = [],
): EvidenceIndex {
  const idx: EvidenceIndex = {
    numbers: [],
    units: new Set(),
    dates: [],
    verdicts: new Set(),
    text: '',
    excluded: new Set(),
    records: [],
    facts: [],
  };
  const texts: string[] = [];
  let chars = 0;
  let values = 0;
  const mention = (symbol: string | undefined): void => {
    if (symbol !== undefined) idx.units.add(symbol);
  };
  const newRecord = (subjects: Iterable<string>): EvidenceRecord => {
    const r: EvidenceRecord = { subjects: new Set(subjects), numbers: [], conditions: new Set() };
    idx.records.push(r);
    return r;
  };
  const addNumber = (n: ObservedNumber, record: EvidenceRecord): void => {
    idx.numbers.push(n);
    record.numbers.push(n);
    mention(n.unit);
  };
  const readText = (text: string, asKey: boolean, record: EvidenceRecord, path = ''): void => {
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
    for (const d of readDates(cut)) idx.dates.push(d.iso);
    const verdict = readVerdict(cut);
    if (verdict && cut.trim().length <= 12) idx.verdicts.add(verdict);
    if (asKey) return;
    // A short value about one subject at most is one fact of its record ("light rain", "Paris").
    if (cut.length <= MAX_SUBJECT_CHARS && namesOf(cut).length <= 1) {
      for (const n of readNumbers(cut)) addNumber(n, record);
      for (const c of conditionsIn(cut)) record.conditions.add(c);
      idx.facts.push({ path, said: cut });
      return;
    }
    // Prose: each clause is a record about its own names, or the nearest ones before it.
    const clauses = readClauses(cut);
    const numbers = readNumbers(cut);
    let n = 0;
    for (const clause of clauses) {
      const named = clause.candidates[0] ?? [];
      const own = newRecord([...record.subjects, ...named]);
      while (n < numbers.length && numbers[n]!.at < clause.end) addNumber(numbers[n++]!, own);
      const said = cut.slice(clause.at, clause.end);
      for (const c of conditionsIn(said)) own.conditions.add(c);
      idx.facts.push({ path, said });
    }
  };
  const walk = (v: unknown, depth: number, record: EvidenceRecord, key?: string, path = ''): void => {
    if (++values > MAX_EVIDENCE_VALUES || depth > 32) return;
    if (typeof v === 'string') readText(v, false, record, path);
    else if (typeof v === 'boolean') {
      idx.verdicts.add(v ? 'yes' : 'no');
      idx.facts.push({ path, said: String(v) });
    } else if (typeof v === 'number' && Number.isFinite(v)) {
      addNumber(keyed(bare(v), key), record);
      idx.facts.push({ path, said: String(v) });
    } else if (Array.isArray(v)) for (const item of v) walk(item, depth + 1, record, key, path);
    else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      // Its subjects: the names among its short string values, and those of the child objects
      // that say where or what it is about (`"location": {"name": "Paris"}`).
      const names = entries.flatMap(([k, s]) => subjectNamesOf(k, s));
      const own = names.length > 0 ? newRecord([...record.subjects, ...names]) : record;
      // A sibling `unit` or `currency` field gives this object's bare numbers their unit.
      const named = entries.find(([k, u]) => /^(unit|units|currency|symbol)$/i.test(k) && typeof u === 'string');
      const siblingUnit = named ? unitWord(String(named[1]).trim()) : undefined;
      for (const [k, item] of entries) {
        readText(k.split('_').join(' '), true, own);
        const at = path.length < MAX_PATH_CHARS ? `${path} ${k}` : path;
        // A key that names a subject (`{"Paris": {...}}`) makes its value about that subject.
        const keyNames = item !== null && typeof item === 'object' && k.length <= MAX_SUBJECT_CHARS ? namesOf(k) : [];
        const child = keyNames.length > 0 ? newRecord([...own.subjects, ...keyNames]) : own;
        const keyUnit = typeof item === 'number' ? unitOfKey(k) : undefined;
        if ((keyUnit ?? siblingUnit) !== undefined && typeof item === 'number' && Number.isFinite(item)) {
          addNumber(keyed({ ...bare(item), unit: (keyUnit ?? siblingUnit)! }, k), child);
          idx.facts.push({ path: at, said: String(item) });
        } else walk(item, depth + 1, child, k, at);
      }
    }
  };
  // What a sub-agent could not stand behind is cut out of its answer before it is read, so
  // neither its claims nor its words support the parent (a fault is named "12°C (Tokyo)").
  const faults = unsupported.map((f) => f.replace(/ \([^()]*\)$/u, '')).filter((f) => f.length >= 2);
  if (typeof value === 'string' && faults.length > 0) value = faults.reduce((v, f) => v.split(f).join(' '), value);
  const args = about.filter((a) => a.length <= MAX_SUBJECT_CHARS);
  // What the call was made with is what its result is about: its names, its words.
  for (const a of args) {
    texts.push(a);
    idx.facts.push({ path: '', said: a });
  }
  walk(value, 0, newRecord(args.flatMap(namesOf)));
  idx.text = ` ${foldText(texts.join(' \n '))} `;
  for (const text of unsupported) {
    // A fault is named with what it was said of ("12°C (Tokyo)"): the claim is what precedes it.
    for (const c of extractClaims(text.replace(/ \([^()]*\)$/u, '')).claims)
      idx.excluded.add(claimKey(c.kind, c.value));
  }
  return idx;
}

function keyed(n: NumberValue, key: string | undefined): ObservedNumber {
  return key === undefined ? n : { ...n, key };
}
