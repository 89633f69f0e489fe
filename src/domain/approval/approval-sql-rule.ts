/*
 * The `sqlVerb` approval rule, failing closed: SQL needs no approval only when a real parser
 * (node-sql-parser's PostgreSQL and MySQL grammars, both) reads it as exactly one plain read: a
 * SELECT without INTO, without a locking clause, whose every nested query is a SELECT too and
 * whose every function is a known side-effect-free one. Anything a parser cannot read needs
 * approval. Pure JS, so it runs in the workflow sandbox; never throws.
 */

interface SqlParser {
  dialect: string;
  parser: { astify(sql: string): unknown };
}

let parsers: readonly SqlParser[] | undefined;

/**
 * The two grammars, loaded on first use: they are about 600 KB of code that a worker whose runs
 * have no SQL rule should not evaluate. The workflow bundle preloads this module, so the parsers
 * made by the first run that needs them serve every later run in the V8 context; they keep no
 * state between parses. They are node-sql-parser's own build files, copied into the package's
 * vendor/ folder (scripts/vendor-sql-grammars.cjs): the package whole is 89 MB. The path is the
 * same from src/ and dist/, both one level under the root.
 */
function sqlParsers(): readonly SqlParser[] {
  parsers ??= [
    {
      dialect: 'PostgreSQL',
      parser: new (
        require('../../../vendor/node-sql-parser/postgresql') as typeof import('node-sql-parser/build/postgresql')
      ).Parser(),
    },
    {
      dialect: 'MySQL',
      parser: new (
        require('../../../vendor/node-sql-parser/mysql') as typeof import('node-sql-parser/build/mysql')
      ).Parser(),
    },
  ];
  return parsers;
}

/**
 * Functions a plain read may call: built-ins with no side effects in PostgreSQL or MySQL.
 * Any other (`nextval`, `pg_terminate_backend`, `sleep`, `load_file`, a user's function) may write.
 */
const READ_ONLY_FUNCTIONS: ReadonlySet<string> = new Set(
  (
    'abs avg ceil ceiling char_length character_length coalesce concat concat_ws count cast ' +
    'current_date current_time current_timestamp date date_part date_trunc day extract floor ' +
    'greatest hour if ifnull initcap least left length lower lpad ltrim max min minute mod month ' +
    'now nullif position power replace right round rpad rtrim second sign sqrt strpos substr ' +
    'substring sum to_char trim trunc upper year'
  ).split(' '),
);

/** Statement kinds other than SELECT; found anywhere in the tree, the SQL is no plain read. */
const STATEMENT_TYPES: ReadonlySet<string> = new Set(
  (
    'insert update delete replace create drop alter truncate rename call set lock unlock grant revoke use show ' +
    'exec execute declare transaction load_data copy prepare deallocate do raise go merge analyze vacuum'
  ).split(' '),
);

/** Clauses that lock rows (`FOR UPDATE`, `FOR SHARE`, `LOCK IN SHARE MODE`): they block writers, so not a plain read. */
const LOCKING_KEYS: readonly string[] = ['locking_read', 'for_update', 'lock'];

export const verbWords = (verb: string): string[] => verb.trim().toUpperCase().split(/\s+/).filter(Boolean);

function functionName(node: Record<string, unknown>): string {
  const name = node['name'];
  if (typeof name === 'string') return name;
  const parts = (name as { name?: unknown } | null)?.name;
  if (Array.isArray(parts)) return parts.map((p) => String((p as { value?: unknown } | null)?.value ?? '')).join('.');
  return '';
}

/** Why the parsed tree is not a plain read, or undefined when every node in it is one. */
function writeIn(node: unknown, depth: number): string | undefined {
  if (depth > 200) return 'is nested too deeply to check';
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = writeIn(item, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (node === null || typeof node !== 'object') return undefined;
  const record = node as Record<string, unknown>;
  const type = record['type'];
  if (typeof type === 'string' && STATEMENT_TYPES.has(type)) return `runs ${type.toUpperCase()}`;
  if (type === 'select') {
    const into = record['into'] as { position?: unknown; expr?: unknown } | null | undefined;
    if (into && (into.position != null || into.expr != null)) return 'runs SELECT … INTO, which writes';
    for (const key of LOCKING_KEYS) if (record[key] != null) return 'takes row locks (FOR UPDATE/SHARE)';
  }
  if (type === 'function') {
    const name = functionName(record).toLowerCase();
    if (!READ_ONLY_FUNCTIONS.has(name)) return `calls ${name || 'a function'}(), which may write`;
  }
  for (const value of Object.values(record)) {
    const found = writeIn(value, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Why `sql` is not one plain read in `dialect`, or undefined when it is. */
function notPlainRead(sql: string, dialect: string, parser: { astify(sql: string): unknown }): string | undefined {
  let ast: unknown;
  try {
    ast = parser.astify(sql);
  } catch {
    return `cannot be read by the ${dialect} parser`;
  }
  const statements = Array.isArray(ast) ? ast : [ast];
  if (statements.length !== 1) return `holds ${statements.length} statements`;
  const only = statements[0] as Record<string, unknown> | null;
  if (only === null || typeof only !== 'object' || only['type'] !== 'select')
    return `runs ${String(only?.['type'] ?? 'an unknown statement').toUpperCase()}`;
  const found = writeIn(only, 0);
  return found === undefined ? undefined : `${found} (${dialect})`;
}

/** Longer SQL is not parsed (a 30 KB statement takes a parser over a second): it needs approval. */
export const MAX_CHECKED_SQL_LENGTH = 8_000;

/**
 * Text the parsers read differently from the databases, so a statement could hide behind it:
 * a backslash (PostgreSQL reads `'a\'` as a whole string, the parsers do not), `--` and block
 * comments (MySQL runs the text of a `/*!` comment and reads `--1` as minus minus one, the parsers
 * drop both; PostgreSQL nests block comments) and dollar quoting (`$tag$`; `$1` parameters are
 * fine). `#` comments are read alike by the MySQL parser, and PostgreSQL's refuses them.
 */
const AMBIGUOUS_SQL: ReadonlyArray<[RegExp, string]> = [
  [/\\/, 'a backslash'],
  [/--|\/\*|\*\//, 'a comment marker (--, /* or */)'],
  [/\$(?!\d)/, 'a $ that may start dollar quoting'],
];

/**
 * Missing or non-string fields never match. Text needs approval unless both parsers read it as
 * one plain read and it holds nothing the parsers and the databases read differently; a plain
 * read needs approval too when `SELECT` is among the verbs.
 */
export function sqlReason(value: unknown, verbs: readonly string[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.length > MAX_CHECKED_SQL_LENGTH)
    return `SQL is longer than ${MAX_CHECKED_SQL_LENGTH} characters, too long to check`;
  for (const [pattern, what] of AMBIGUOUS_SQL) {
    if (pattern.test(value))
      return `SQL contains ${what}, which databases and parsers read differently, so it is not recognised as a plain read`;
  }
  for (const { dialect, parser } of sqlParsers()) {
    const problem = notPlainRead(value, dialect, parser);
    if (problem !== undefined) return `SQL is not recognised as one plain read: it ${problem}`;
  }
  if (verbs.some((verb) => verbWords(verb)[0] === 'SELECT')) return 'SQL statement starts with SELECT';
  return undefined;
}
