import type { ApprovalPolicy, ApprovalRule } from './approval';
import { canonicalJson } from './arguments-hash';
import type { ToolSpec } from './tool-spec';

/*
 * Evaluates a tool's approval policy against a call's arguments. Runs inside the workflow: pure,
 * deterministic, no Node modules, and never throws. Rules guard side effects, so every doubt
 * (unreadable amount, broken pattern, path that climbs out of its folder) means "approval needed".
 */

export type ApprovalCheck = { needed: false } | { needed: true; reason: string };

const NOT_NEEDED: ApprovalCheck = { needed: false };

/**
 * Whether a call with `args` needs a person's approval under `policy` (absent means `never`).
 * The reason names the first rule that held, in words an approver reads.
 */
export function approvalNeeded(policy: ApprovalPolicy | undefined, args: Record<string, unknown>): ApprovalCheck {
  if (policy === undefined || policy === 'never') return NOT_NEEDED;
  if (policy === 'always') return { needed: true, reason: 'always requires approval' };
  for (const rule of policy.anyOf) {
    const reason = ruleReason(rule, args);
    if (reason !== undefined) return { needed: true, reason };
  }
  return NOT_NEEDED;
}

/** One line for the CLI and status views: `always`, `never`, or `when path under /etc; when amount > 1000`. */
export function describePolicy(policy: ApprovalPolicy | undefined): string {
  if (policy === undefined || policy === 'never') return 'never';
  if (policy === 'always') return 'always';
  return policy.anyOf.map(describeRule).join('; ').replace(/[\u0000-\u001f]+/g, ' ');
}

const WRITE_LIKE_TYPES: ReadonlySet<string> = new Set(['file_system', 'database']);

/**
 * The policy a tool gets when it sets none: `always` for write-like tools (type `file_system` or
 * `database` and not marked `readOnly: true`), `never` for every other tool.
 */
export function defaultApprovalPolicy(tool: Pick<ToolSpec, 'type' | 'readOnly'>): ApprovalPolicy {
  return WRITE_LIKE_TYPES.has(tool.type) && tool.readOnly !== true ? 'always' : 'never';
}

/**
 * Values at a dotted path: own properties only; an array on the way fans out over its elements
 * unless the segment is an index (`items.0.path`). Each value found that is an array also yields
 * its elements, at any depth, so a rule holds when any element meets it. A missing field yields none.
 */
function candidates(value: unknown, path: readonly string[]): unknown[] {
  const [head, ...rest] = path;
  if (head === undefined) return Array.isArray(value) ? [value, ...value.flatMap((v) => candidates(v, []))] : [value];
  if (Array.isArray(value)) {
    if (!/^\d+$/.test(head)) return value.flatMap((element) => candidates(element, path));
    return Number(head) < value.length ? candidates(value[Number(head)], rest) : [];
  }
  if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, head)) return [];
  return candidates((value as Record<string, unknown>)[head], rest);
}

function ruleReason(rule: ApprovalRule, args: Record<string, unknown>): string | undefined {
  const found = candidates(args, rule.field.split('.'));
  const first = (test: (value: unknown) => string | undefined): string | undefined => {
    for (const value of found) {
      const reason = test(value);
      if (reason !== undefined) return reason;
    }
    return undefined;
  };
  switch (rule.when) {
    case 'pathPrefix':
      return first((value) => pathReason(rule.field, value, rule.prefixes));
    case 'above':
      return first((value) => aboveReason(rule.field, value, rule.threshold));
    case 'sqlVerb':
      return first((value) => sqlReason(value, rule.verbs));
    case 'matches': {
      let pattern: RegExp;
      try {
        pattern = new RegExp(rule.pattern, 'i');
      } catch (error) {
        const detail = error instanceof Error ? `: ${error.message}` : '';
        return `invalid approval rule pattern ${shown(rule.pattern)} for ${rule.field}${detail}`;
      }
      return first((value) =>
        (typeof value === 'string' || typeof value === 'number') && pattern.test(String(value)) ? `${rule.field} matches /${rule.pattern}/` : undefined,
      );
    }
    case 'equals':
      return first((value) => {
        const text = jsonText(value);
        if (text === undefined) return `${rule.field} cannot be compared as JSON`;
        return rule.values.some((listed) => jsonText(listed) === text) ? `${rule.field} is ${shown(value)}` : undefined;
      });
    default: {
      const unknownRule: never = rule;
      return `unknown approval rule ${shown(unknownRule)}`;
    }
  }
}

function describeRule(rule: ApprovalRule): string {
  switch (rule.when) {
    case 'pathPrefix':
      return `when ${rule.field} under ${rule.prefixes.join(' or ')}`;
    case 'above':
      return `when ${rule.field} > ${rule.threshold}`;
    case 'sqlVerb':
      return `when ${rule.field} runs ${rule.verbs.map(verbWords).map((w) => w.join(' ')).join(' or ')}`;
    case 'matches':
      return `when ${rule.field} matches /${rule.pattern}/`;
    case 'equals':
      return `when ${rule.field} is ${rule.values.map(shown).join(' or ')}`;
    default: {
      const unknownRule: never = rule;
      return `when ${shown(unknownRule)}`;
    }
  }
}

/** Canonical JSON (key order ignored), or undefined for values JSON cannot hold (cycles, bigint). */
function jsonText(value: unknown): string | undefined {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
}

/** JSON text of a value for a reason, cut to 120 characters; control characters stay escaped. */
function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

// ---- pathPrefix ----------------------------------------------------------------------------

/** A POSIX path after normalisation: `..` kept only as leading segments of a relative path. */
interface NormalPath {
  absolute: boolean;
  segments: string[];
}

/**
 * Decodes ASCII percent-escapes (`%2e%2e%2f`) until none are left, so double encoding does not
 * hide `..`. Undefined when still encoded after 8 rounds.
 */
function decodePercents(text: string): string | undefined {
  let current = text;
  for (let round = 0; round < 8; round++) {
    const next = current.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === current) return current;
    current = next;
  }
  return undefined;
}

/**
 * Pure POSIX normalisation: percent-decoded, `\` read as `/`, a `file://host` prefix dropped,
 * `//` and `.` collapsed, `..` resolved (`/..` is `/`). Relative paths stay relative.
 */
function normalisePath(raw: string): NormalPath | undefined {
  const decoded = decodePercents(raw);
  if (decoded === undefined) return undefined;
  let text = decoded.replace(/\\/g, '/');
  if (/^file:\/\//i.test(text)) text = text.slice(7).replace(/^[^/]*/, '');
  const absolute = text.startsWith('/');
  const segments: string[] = [];
  for (const part of text.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') segments.push(part);
    else if (segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
    else if (!absolute) segments.push('..');
  }
  return { absolute, segments };
}

/** Segment by segment and case-insensitively (macOS and Windows file systems ignore case). */
function isUnder(path: NormalPath, prefix: NormalPath): boolean {
  if (path.absolute !== prefix.absolute || prefix.segments.length > path.segments.length) return false;
  return prefix.segments.every((segment, i) => segment.toLowerCase() === path.segments[i]?.toLowerCase());
}

/**
 * Missing or non-string fields never match. A relative path whose `..` climbs above where it
 * starts could reach anything, so it matches every prefix; so does one still encoded after 8 rounds.
 */
function pathReason(field: string, value: unknown, prefixes: readonly string[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  const path = normalisePath(value);
  if (path === undefined) return `${field} ${shown(value)} is percent-encoded too many times to check`;
  if (!path.absolute && path.segments[0] === '..') return `${field} ${shown(value)} climbs above its starting folder`;
  const resolved = `${path.absolute ? '/' : ''}${path.segments.join('/')}`;
  const via = resolved === value.replace(/(.)\/+$/, '$1') ? '' : ` (resolves to ${shown(resolved)})`;
  for (const prefix of prefixes) {
    const base = normalisePath(prefix);
    if (base !== undefined && isUnder(path, base)) return `${field} ${shown(value)}${via} is under ${shown(prefix)}`;
  }
  return undefined;
}

// ---- above ---------------------------------------------------------------------------------

/**
 * A number, or a string holding one: optional sign and currency symbol, `1500`, `1500.5`, `1e3`,
 * or comma thousands in groups of three (`1,500.00`). Any other non-empty string is `unreadable`;
 * empty strings and non-numbers (booleans, objects, null) are no amount at all.
 */
function amountOf(value: unknown): number | 'unreadable' | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().replace(/^([+-]?)[$€£¥]\s*/, '$1');
  if (text === '') return undefined;
  if (/^[+-]?(infinity|nan)$/i.test(text)) return Number.NaN;
  const plain = /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text) ? text.replace(/,/g, '') : text;
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(plain) ? Number(plain) : 'unreadable';
}

/** Missing fields and non-amounts never match; unreadable and non-finite amounts always do. */
function aboveReason(field: string, value: unknown, threshold: number): string | undefined {
  const amount = amountOf(value);
  if (amount === undefined) return undefined;
  const text = typeof value === 'number' ? String(value) : shown(value);
  if (amount === 'unreadable') return `${field} ${text} is not a number, so it may be above ${threshold}`;
  if (!Number.isFinite(amount)) return `${field} ${text} is not a finite number`;
  return amount > threshold ? `${field} ${text} is above ${threshold}` : undefined;
}

// ---- sqlVerb -------------------------------------------------------------------------------

interface SqlToken {
  kind: 'word' | 'open' | 'close' | 'comma' | 'other';
  /** Upper-cased for words; quoted text and comments never become tokens' text. */
  text: string;
}

/**
 * Lexical quirks that decide where a quote or comment ends. The SQL is read under each dialect
 * and the verbs found are pooled, so text that is a harmless string in one dialect but a
 * statement in another (`'a\'; DROP …`) still counts.
 */
type SqlDialect = Partial<
  Record<'backslash' | 'hashComments' | 'dashNeedsSpace' | 'nestedComments' | 'dollarQuotes' | 'eStrings' | 'brackets' | 'bangComments' | 'goSeparator', boolean>
>;

const SQL_DIALECTS: readonly SqlDialect[] = [
  { nestedComments: true, dollarQuotes: true, eStrings: true }, // PostgreSQL
  { backslash: true, hashComments: true, dashNeedsSpace: true, bangComments: true }, // MySQL, MariaDB
  { brackets: true }, // SQLite
  { brackets: true, nestedComments: true, goSeparator: true }, // SQL Server
];

const isWordStart = (c: string): boolean => /[A-Za-z_\u0080-\uffff]/.test(c);
const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\w$\u0080-\uffff]/.test(c);

/** Index just past a quoted run opened at `start`; a doubled closer is an escaped one. Unclosed runs end the text. */
function quoteEnd(sql: string, start: number, closer: string, backslash: boolean): number {
  for (let j = start + 1; j < sql.length; j++) {
    if (backslash && sql[j] === '\\') j++;
    else if (sql[j] === closer) {
      if (sql[j + 1] !== closer) return j + 1;
      j++;
    }
  }
  return sql.length;
}

function blockCommentEnd(sql: string, start: number, nested: boolean): number {
  let depth = 0;
  for (let j = start; j < sql.length - 1; j++) {
    if (sql[j] === '/' && sql[j + 1] === '*' && (nested || depth === 0)) {
      depth++;
      j++;
    } else if (sql[j] === '*' && sql[j + 1] === '/') {
      j++;
      if (--depth === 0) return j + 1;
    }
  }
  return sql.length;
}

function lineEnd(sql: string, start: number): number {
  const match = /[\r\n]/g;
  match.lastIndex = start;
  return match.exec(sql)?.index ?? sql.length;
}

/** Tokens of each statement, split on `;` outside quotes and comments; comments are dropped. */
function sqlStatements(sql: string, d: SqlDialect): SqlToken[][] {
  const statements: SqlToken[][] = [];
  let tokens: SqlToken[] = [];
  const endStatement = (): void => {
    if (tokens.length > 0) statements.push(tokens);
    tokens = [];
  };
  const quoted: SqlToken = { kind: 'other', text: '' };
  const dollarTag = /\$([A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)?\$/y;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    const next = sql[i + 1];
    dollarTag.lastIndex = i;
    const tag = c === '$' && d.dollarQuotes ? dollarTag.exec(sql)?.[0] : undefined;
    if (c === ';') {
      endStatement();
      i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if ((c === '-' && next === '-' && (!d.dashNeedsSpace || /[\u0000-\u0020]/.test(sql[i + 2] ?? ' '))) || (c === '#' && d.hashComments)) {
      i = lineEnd(sql, i);
    } else if (c === '/' && next === '*' && d.bangComments && sql[i + 2] === '!') {
      // MySQL runs the text of `/*!50000 … */`: skip only the marker and read on as code.
      i += 3;
      while (/\d/.test(sql[i] ?? '')) i++;
    } else if (c === '/' && next === '*') {
      i = blockCommentEnd(sql, i, d.nestedComments === true);
    } else if (c === "'" || c === '"' || c === '`' || (c === '[' && d.brackets)) {
      i = quoteEnd(sql, i, c === '[' ? ']' : c, d.backslash === true && c !== '`' && c !== '[');
      tokens.push(quoted);
    } else if (tag !== undefined) {
      const close = sql.indexOf(tag, i + tag.length);
      i = close < 0 ? sql.length : close + tag.length;
      tokens.push(quoted);
    } else if (isWordStart(c)) {
      let j = i + 1;
      while (isWordChar(sql[j])) j++;
      const word = sql.slice(i, j).toUpperCase();
      if (d.eStrings && word === 'E' && sql[j] === "'") {
        i = quoteEnd(sql, j, "'", true);
        tokens.push(quoted);
      } else {
        i = j;
        if (d.goSeparator && word === 'GO') endStatement();
        else tokens.push({ kind: 'word', text: word });
      }
    } else if (/\d/.test(c)) {
      while (isWordChar(sql[i]) || sql[i] === '.') i++;
      tokens.push(quoted);
    } else {
      tokens.push({ kind: c === '(' ? 'open' : c === ')' ? 'close' : c === ',' ? 'comma' : 'other', text: c });
      i++;
    }
  }
  endStatement();
  return statements;
}

/** Index of the `)` closing the group opened at `open`, or the token count when unclosed. */
function groupClose(tokens: readonly SqlToken[], open: number): number {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    const kind = tokens[j]?.kind;
    if (kind === 'open') depth++;
    else if (kind === 'close' && --depth === 0) return j;
  }
  return tokens.length;
}

const EXPLAIN_OPTIONS = new Set(['ANALYZE', 'ANALYSE', 'VERBOSE', 'EXTENDED', 'PARTITIONS', 'QUERY', 'PLAN']);

/**
 * The leading words of every statement this one runs: its own verb after any `(` and `WITH … AS
 * (…)` list, the verb of each CTE body (`WITH d AS (DELETE …) SELECT …` runs a DELETE), and the
 * statement an `EXPLAIN` names (`EXPLAIN ANALYZE DELETE …` runs it).
 */
function statementHeads(tokens: readonly SqlToken[]): string[][] {
  const heads: string[][] = [];
  const word = (at: number): string | undefined => (tokens[at]?.kind === 'word' ? tokens[at]?.text : undefined);
  const skipOpens = (at: number): number => (tokens[at]?.kind === 'open' ? skipOpens(at + 1) : at);
  let i = skipOpens(0);
  if (word(i) === 'WITH') {
    i += word(i + 1) === 'RECURSIVE' ? 2 : 1;
    for (;;) {
      i++; // the CTE's name
      if (tokens[i]?.kind === 'open') i = groupClose(tokens, i) + 1; // its column list
      while (word(i) === 'AS' || word(i) === 'NOT' || word(i) === 'MATERIALIZED') i++;
      if (tokens[i]?.kind === 'open') {
        const close = groupClose(tokens, i);
        heads.push(...statementHeads(tokens.slice(i + 1, close)));
        i = close + 1;
      }
      while (word(i) === 'SEARCH' || word(i) === 'CYCLE') {
        const last = word(i) === 'SEARCH' ? 'SET' : 'USING';
        while (i < tokens.length && word(i) !== last) i++;
        i += 2;
      }
      if (tokens[i]?.kind !== 'comma') break;
      i++;
    }
    i = skipOpens(i);
  }
  const head: string[] = [];
  for (let j = i; word(j) !== undefined; j++) head.push(word(j) as string);
  if (head.length === 0) return heads;
  heads.push(head);
  if (head[0] === 'EXPLAIN') {
    let j = i + 1;
    for (;;) {
      if (tokens[j]?.kind === 'open') j = groupClose(tokens, j) + 1;
      else if (EXPLAIN_OPTIONS.has(word(j) ?? '')) j++;
      else if (word(j) === 'FORMAT') j += tokens[j + 1]?.text === '=' ? 3 : 2;
      else break;
    }
    heads.push(...statementHeads(tokens.slice(j)));
  }
  return heads;
}

const verbWords = (verb: string): string[] => verb.trim().toUpperCase().split(/\s+/).filter(Boolean);

/** Missing or non-string fields never match; otherwise any statement starting with a listed verb does. */
function sqlReason(value: unknown, verbs: readonly string[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  const wanted = verbs.map(verbWords);
  for (const dialect of SQL_DIALECTS) {
    for (const tokens of sqlStatements(value, dialect)) {
      for (const head of statementHeads(tokens)) {
        const verb = wanted.find((words) => words.every((w, k) => head[k] === w));
        if (verb !== undefined) return `SQL statement starts with ${verb.join(' ') || 'any verb'}`;
      }
    }
  }
  return undefined;
}
