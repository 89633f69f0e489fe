/*
 * LEGACY, for histories recorded before `approval-rules-fail-closed` only (see
 * legacy-approval-policy.ts). The `sqlVerb` approval rule: finds the verb of every statement, reading the SQL as several
 * dialects quote and comment it, so a statement hidden from one reading is still found.
 */

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

const EXPLAIN_OPTIONS: ReadonlySet<string> = new Set(['ANALYZE', 'ANALYSE', 'VERBOSE', 'EXTENDED', 'PARTITIONS', 'QUERY', 'PLAN']);

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

export const verbWords = (verb: string): string[] => verb.trim().toUpperCase().split(/\s+/).filter(Boolean);

/** Missing or non-string fields never match; otherwise any statement starting with a listed verb does. */
export function legacySqlReason(value: unknown, verbs: readonly string[]): string | undefined {
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
