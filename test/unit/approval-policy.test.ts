import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalPolicy, ApprovalRule } from '../../src/shared/approval/approval';
import { approvalNeeded as currentApprovalNeeded, defaultApprovalPolicy, describePolicy } from '../../src/shared/approval/approval-policy';
import { legacyApprovalNeeded } from '../../src/shared/approval/legacy-approval-policy';

let approvalNeeded = currentApprovalNeeded;
const policy = (...anyOf: ApprovalRule[]): ApprovalPolicy => ({ anyOf: anyOf as [ApprovalRule, ...ApprovalRule[]] });
const underEtc = policy({ when: 'pathPrefix', field: 'path', prefixes: ['/etc'] });
const pathUnderEtc = (path: unknown): boolean => approvalNeeded(underEtc, { path }).needed;
const overThousand = policy({ when: 'above', field: 'amount', threshold: 1000 });
const amountOver = (amount: unknown): boolean => approvalNeeded(overThousand, { amount }).needed;
const destructive = policy({ when: 'sqlVerb', field: 'sql', verbs: ['delete', 'DROP', 'Truncate', 'update'] });
const sqlNeeds = (sql: unknown): boolean => approvalNeeded(destructive, { sql }).needed;
const reasonOf = (p: ApprovalPolicy | undefined, args: Record<string, unknown>): string | undefined => {
  const check = approvalNeeded(p, args);
  return check.needed ? check.reason : undefined;
};

describe('approvalNeeded: fixed policies', () => {
  it('needs nothing without a policy or with never', () => {
    expect(approvalNeeded(undefined, { path: '/etc/passwd' })).toEqual({ needed: false });
    expect(approvalNeeded('never', { path: '/etc/passwd' })).toEqual({ needed: false });
  });

  it('always needs approval under always, whatever the arguments', () => {
    expect(approvalNeeded('always', {})).toEqual({ needed: true, reason: 'always requires approval' });
  });

  it('reports the first rule that holds, and needs nothing when none does', () => {
    const both = policy({ when: 'equals', field: 'mode', values: ['force'] }, { when: 'above', field: 'amount', threshold: 10 });
    expect(reasonOf(both, { mode: 'force', amount: 50 })).toBe('mode is "force"');
    expect(reasonOf(both, { mode: 'safe', amount: 50 })).toBe('amount 50 is above 10');
    expect(approvalNeeded(both, { mode: 'safe', amount: 5 })).toEqual({ needed: false });
  });
});

describe('fields', () => {
  it('follows dotted paths into nested objects', () => {
    const nested = policy({ when: 'pathPrefix', field: 'target.file.path', prefixes: ['/etc'] });
    expect(reasonOf(nested, { target: { file: { path: '/etc/hosts' } } })).toBe('target.file.path "/etc/hosts" is under "/etc"');
    expect(approvalNeeded(nested, { target: { file: { path: '/tmp/x' } } }).needed).toBe(false);
    expect(approvalNeeded(nested, { target: { path: '/etc/hosts' } }).needed).toBe(false);
  });

  it('never matches a missing field, for any rule kind', () => {
    const all = policy(
      { when: 'pathPrefix', field: 'a', prefixes: ['/'] },
      { when: 'above', field: 'b', threshold: -1e9 },
      { when: 'sqlVerb', field: 'c', verbs: ['SELECT'] },
      { when: 'matches', field: 'd', pattern: '.*' },
      { when: 'equals', field: 'e', values: [null] },
    );
    expect(approvalNeeded(all, {})).toEqual({ needed: false });
    expect(approvalNeeded(all, { x: { a: '/etc' } })).toEqual({ needed: false });
  });

  it('looks only at own properties, not inherited ones', () => {
    const proto = policy({ when: 'matches', field: 'constructor.name', pattern: 'Object' });
    expect(approvalNeeded(proto, {}).needed).toBe(false);
    expect(approvalNeeded(policy({ when: 'equals', field: 'toString', values: [null] }), {}).needed).toBe(false);
  });

  it('holds when any element of an array field meets the rule, or the indexed one', () => {
    const files = policy({ when: 'pathPrefix', field: 'files.path', prefixes: ['/etc'] });
    expect(approvalNeeded(files, { files: [{ path: '/tmp/a' }, { path: '/etc/shadow' }] }).needed).toBe(true);
    expect(approvalNeeded(files, { files: [{ path: '/tmp/a' }, { path: '/tmp/b' }] }).needed).toBe(false);
    const listed = policy({ when: 'pathPrefix', field: 'paths', prefixes: ['/etc'] });
    expect(approvalNeeded(listed, { paths: ['/tmp', ['/etc/x']] }).needed).toBe(true);
    const second = policy({ when: 'above', field: 'items.1.amount', threshold: 10 });
    expect(approvalNeeded(second, { items: [{ amount: 50 }, { amount: 5 }] }).needed).toBe(false);
    expect(approvalNeeded(second, { items: [{ amount: 5 }, { amount: 50 }] }).needed).toBe(true);
    expect(approvalNeeded(second, { items: [{ amount: 50 }] }).needed).toBe(false);
  });
});

describe('pathPrefix (legacy evaluator)', () => {
  // The legacy evaluator, kept for histories recorded before `approval-rules-fail-closed`; the
  // current rules are tested in approval-fail-closed.test.ts.
  beforeAll(() => {
    approvalNeeded = legacyApprovalNeeded;
  });
  afterAll(() => {
    approvalNeeded = currentApprovalNeeded;
  });
  it('matches the prefix itself and paths below it, by whole segments', () => {
    expect(reasonOf(underEtc, { path: '/etc/passwd' })).toBe('path "/etc/passwd" is under "/etc"');
    expect(pathUnderEtc('/etc')).toBe(true);
    expect(pathUnderEtc('/etc/')).toBe(true);
    expect(pathUnderEtc('/etcetera')).toBe(false);
    expect(pathUnderEtc('/etc.d/x')).toBe(false);
    expect(pathUnderEtc('/var/etc/passwd')).toBe(false);
  });

  it('treats a prefix ending in / like the same prefix without it', () => {
    const slash = policy({ when: 'pathPrefix', field: 'path', prefixes: ['/etc/'] });
    expect(approvalNeeded(slash, { path: '/etc' }).needed).toBe(true);
    expect(approvalNeeded(slash, { path: '/etc/x' }).needed).toBe(true);
    expect(approvalNeeded(slash, { path: '/etcetera' }).needed).toBe(false);
  });

  it('resolves . and .. and repeated slashes before comparing', () => {
    expect(reasonOf(underEtc, { path: '/data/../etc/passwd' })).toBe('path "/data/../etc/passwd" (resolves to "/etc/passwd") is under "/etc"');
    expect(pathUnderEtc('//etc//./passwd')).toBe(true);
    expect(pathUnderEtc('/../../etc/passwd')).toBe(true);
    expect(pathUnderEtc('/etc/../tmp/x')).toBe(false);
    expect(pathUnderEtc('/tmp/./etc')).toBe(false);
  });

  it('decodes percent-encoding, also repeated, before normalising', () => {
    expect(pathUnderEtc('/data/%2e%2e/etc/passwd')).toBe(true);
    expect(pathUnderEtc('/data/%2E%2E%2Fetc/passwd')).toBe(true);
    expect(pathUnderEtc('/data/%252e%252e/etc/passwd')).toBe(true);
    expect(pathUnderEtc('%2Fetc%2Fpasswd')).toBe(true);
    expect(pathUnderEtc('/data/%2e%2e%2e/etc')).toBe(false);
  });

  it('fails closed on text still percent-encoded after many rounds', () => {
    const deep = `/tmp/${'%25'.repeat(1)}${'25'.repeat(10)}2e`;
    expect(reasonOf(underEtc, { path: deep })).toMatch(/percent-encoded too many times/);
  });

  it('reads Windows backslashes as slashes', () => {
    expect(pathUnderEtc('\\etc\\passwd')).toBe(true);
    expect(pathUnderEtc('\\data\\..\\etc\\passwd')).toBe(true);
    const windows = policy({ when: 'pathPrefix', field: 'path', prefixes: ['C:\\Windows'] });
    expect(approvalNeeded(windows, { path: 'c:/windows/System32/drivers' }).needed).toBe(true);
    expect(approvalNeeded(windows, { path: 'C:\\Users\\me' }).needed).toBe(false);
  });

  it('compares case-insensitively', () => {
    expect(pathUnderEtc('/ETC/passwd')).toBe(true);
  });

  it('keeps relative paths relative: they match relative prefixes only', () => {
    expect(pathUnderEtc('etc/passwd')).toBe(false);
    const relative = policy({ when: 'pathPrefix', field: 'path', prefixes: ['secrets'] });
    expect(approvalNeeded(relative, { path: './secrets/key' }).needed).toBe(true);
    expect(approvalNeeded(relative, { path: 'docs/../secrets' }).needed).toBe(true);
    expect(approvalNeeded(relative, { path: 'docs/secrets' }).needed).toBe(false);
    expect(approvalNeeded(relative, { path: '/secrets' }).needed).toBe(false);
  });

  it('treats a relative path climbing above its start as under every prefix', () => {
    expect(reasonOf(underEtc, { path: '../../etc/passwd' })).toBe('path "../../etc/passwd" climbs above its starting folder');
    expect(pathUnderEtc('docs/../../x')).toBe(true);
    expect(pathUnderEtc('%2e%2e/x')).toBe(true);
    expect(pathUnderEtc('docs/../x')).toBe(false);
  });

  it('reads file:// URLs as paths', () => {
    expect(pathUnderEtc('file:///etc/passwd')).toBe(true);
    expect(pathUnderEtc('FILE://localhost/etc/passwd')).toBe(true);
    expect(pathUnderEtc('file:///tmp/x')).toBe(false);
  });

  it('never matches a non-string field', () => {
    expect(pathUnderEtc(42)).toBe(false);
    expect(pathUnderEtc({ path: '/etc' })).toBe(false);
    expect(pathUnderEtc(null)).toBe(false);
  });

  it('matches any of several prefixes and names the one that held', () => {
    const several = policy({ when: 'pathPrefix', field: 'path', prefixes: ['/etc', '/var/lib'] });
    expect(reasonOf(several, { path: '/var/lib/db' })).toBe('path "/var/lib/db" is under "/var/lib"');
    expect(approvalNeeded(several, { path: '/var/log/x' }).needed).toBe(false);
    const root = policy({ when: 'pathPrefix', field: 'path', prefixes: ['/'] });
    expect(approvalNeeded(root, { path: '/anything' }).needed).toBe(true);
    expect(approvalNeeded(root, { path: 'relative' }).needed).toBe(false);
  });
});

describe('above', () => {
  it('compares numbers strictly', () => {
    expect(reasonOf(overThousand, { amount: 1500 })).toBe('amount 1500 is above 1000');
    expect(amountOver(1000)).toBe(false);
    expect(amountOver(1000.01)).toBe(true);
    expect(amountOver(-5000)).toBe(false);
  });

  it('reads numeric strings, with a sign, decimals, exponent, currency symbol or comma thousands', () => {
    expect(reasonOf(overThousand, { amount: '1500' })).toBe('amount "1500" is above 1000');
    expect(amountOver('1500.5')).toBe(true);
    expect(amountOver(' 999.99 ')).toBe(false);
    expect(amountOver('1,500.00')).toBe(true);
    expect(amountOver('999')).toBe(false);
    expect(amountOver('2e3')).toBe(true);
    expect(amountOver('$1,200')).toBe(true);
    expect(amountOver('-$1,200')).toBe(false);
    expect(amountOver('+1001')).toBe(true);
    expect(amountOver('.5')).toBe(false);
  });

  it('fails closed on strings it cannot read as one number', () => {
    for (const text of ['1.500,00', '1,5', '1500 USD', '0x10000', '1_500', 'lots']) {
      expect(reasonOf(overThousand, { amount: text }), text).toMatch(/is not a number, so it may be above 1000$/);
    }
  });

  it('counts non-finite numbers as above', () => {
    expect(reasonOf(overThousand, { amount: Number.NaN })).toBe('amount NaN is not a finite number');
    expect(amountOver(Number.POSITIVE_INFINITY)).toBe(true);
    expect(amountOver(Number.NEGATIVE_INFINITY)).toBe(true);
    expect(amountOver('Infinity')).toBe(true);
    expect(amountOver('nan')).toBe(true);
    expect(amountOver('1e999')).toBe(true);
  });

  it('ignores values that are no amount: empty strings, booleans, null, objects', () => {
    for (const value of ['', '   ', true, null, { value: 5000 }]) expect(amountOver(value)).toBe(false);
  });
});

describe('sqlVerb (legacy evaluator)', () => {
  // The legacy evaluator, kept for histories recorded before `approval-rules-fail-closed`; the
  // current rules are tested in approval-fail-closed.test.ts.
  beforeAll(() => {
    approvalNeeded = legacyApprovalNeeded;
  });
  afterAll(() => {
    approvalNeeded = currentApprovalNeeded;
  });
  it('matches the verb case-insensitively, on the rule and in the SQL', () => {
    expect(reasonOf(destructive, { sql: 'delete from users where id = 1' })).toBe('SQL statement starts with DELETE');
    expect(sqlNeeds('Drop Table users')).toBe(true);
    expect(sqlNeeds('TRUNCATE audit')).toBe(true);
    expect(sqlNeeds('SELECT * FROM users')).toBe(false);
    expect(sqlNeeds('INSERT INTO t VALUES (1)')).toBe(false);
  });

  it('matches whole words only', () => {
    expect(sqlNeeds('DELETED_ROWS')).toBe(false);
    expect(sqlNeeds('SELECT * FROM deleted_rows')).toBe(false);
    expect(sqlNeeds('SELECT * FROM t WHERE x = 1 FOR UPDATE')).toBe(false);
  });

  it('matches when any statement starts with a verb', () => {
    expect(sqlNeeds('SELECT 1; DROP TABLE x')).toBe(true);
    expect(sqlNeeds('SELECT 1;DROP TABLE x;')).toBe(true);
    expect(sqlNeeds('BEGIN; UPDATE accounts SET balance = 0; COMMIT;')).toBe(true);
    expect(sqlNeeds('SELECT 1; SELECT 2;;')).toBe(false);
  });

  it('skips leading comments, whitespace and parentheses', () => {
    expect(sqlNeeds('-- clean up\n  DELETE FROM t')).toBe(true);
    expect(sqlNeeds('/* harmless */ DELETE FROM t')).toBe(true);
    expect(sqlNeeds('/* a */ -- b\n/* c */ ( ( DELETE FROM t ) )')).toBe(true);
    expect(sqlNeeds('\n\t  delete from t')).toBe(true);
  });

  it('ignores verbs and semicolons inside quotes and comments', () => {
    expect(sqlNeeds("SELECT 'a; DELETE FROM t' AS s")).toBe(false);
    expect(sqlNeeds('SELECT "x;DROP TABLE y" FROM t')).toBe(false);
    expect(sqlNeeds('SELECT `a;drop table b` FROM t')).toBe(false);
    expect(sqlNeeds("SELECT 'it''s; DELETE' FROM t")).toBe(false);
    expect(sqlNeeds('SELECT $$ DELETE FROM t $$')).toBe(false);
    expect(sqlNeeds("SELECT $body$ it's; DROP TABLE t $body$")).toBe(false);
    expect(sqlNeeds('SELECT 1 -- ; DELETE FROM t')).toBe(false);
    expect(sqlNeeds('SELECT 1 /* ; DELETE FROM t; */')).toBe(false);
    expect(sqlNeeds("SELECT 1 -- don't\n; SELECT 2")).toBe(false);
  });

  it('still sees a statement after quotes and comments end', () => {
    expect(sqlNeeds("SELECT 'a;b'; DELETE FROM t")).toBe(true);
    expect(sqlNeeds('SELECT 1 -- note\n; DROP TABLE t')).toBe(true);
    expect(sqlNeeds('SELECT $$x$$; DELETE FROM t')).toBe(true);
  });

  it('counts a statement that any common dialect would run, however another reads it', () => {
    // MySQL: the backslash escapes the quote, so the string ends late and the DROP runs.
    expect(sqlNeeds("SELECT 'a\\''; DROP TABLE x; -- '")).toBe(true);
    // PostgreSQL: the backslash is a plain character, so the string ends early and the DROP runs.
    expect(sqlNeeds("SELECT 'a\\'; DROP TABLE x; -- '")).toBe(true);
    // PostgreSQL nests block comments; the first */ does not end this one.
    expect(sqlNeeds("/* /* */ ' */ ; DROP TABLE x; --'")).toBe(true);
    // MySQL # comments hide the quote that would otherwise swallow the rest.
    expect(sqlNeeds("SELECT 1 # '\n; DROP TABLE x")).toBe(true);
    // MySQL runs the text of /*! … */ comments.
    expect(sqlNeeds('SELECT 1; /*!50000 DROP TABLE x */')).toBe(true);
    // SQL Server and SQLite bracket identifiers.
    expect(sqlNeeds("SELECT [x'] ; DROP TABLE y; --'")).toBe(true);
    // PostgreSQL reads $$ as a quote, MySQL as a name: there the DELETE runs.
    expect(sqlNeeds('SELECT 1 AS $$; DELETE FROM t; SELECT 1 AS $$')).toBe(true);
    // SQL Server's GO ends a batch.
    expect(sqlNeeds('SELECT 1\nGO\nDELETE FROM t')).toBe(true);
    // PostgreSQL E'' strings use backslash escapes (and # is no comment there, unlike in MySQL).
    expect(sqlNeeds("SELECT E'\\'' # 1; DROP TABLE x; --'")).toBe(true);
  });

  it('finds the verb after a WITH … AS (…) prefix', () => {
    expect(reasonOf(destructive, { sql: 'WITH old AS (SELECT id FROM t WHERE ts < now()) DELETE FROM t USING old' })).toBe(
      'SQL statement starts with DELETE',
    );
    expect(sqlNeeds('with recursive a(n) as (select 1), b as materialized (select 2) update t set x = 1')).toBe(true);
    expect(sqlNeeds('WITH "q;x" AS NOT MATERIALIZED (SELECT \';\') DELETE FROM t')).toBe(true);
    expect(sqlNeeds('WITH a AS (SELECT 1) SELECT * FROM a')).toBe(false);
    expect(sqlNeeds('WITH a AS (SELECT 1), b AS (SELECT 2) (SELECT * FROM a)')).toBe(false);
  });

  it('counts a data-modifying CTE body and the statement EXPLAIN ANALYZE runs', () => {
    expect(sqlNeeds('WITH gone AS (DELETE FROM t RETURNING *) SELECT count(*) FROM gone')).toBe(true);
    expect(sqlNeeds('WITH RECURSIVE t AS (SELECT 1) SEARCH DEPTH FIRST BY id SET ord DELETE FROM x')).toBe(true);
    expect(sqlNeeds('EXPLAIN ANALYZE DELETE FROM t')).toBe(true);
    expect(sqlNeeds('EXPLAIN (ANALYZE, BUFFERS) UPDATE t SET x = 1')).toBe(true);
    expect(sqlNeeds('EXPLAIN FORMAT=JSON SELECT 1')).toBe(false);
  });

  it('matches multi-word verbs word by word', () => {
    const dropTable = policy({ when: 'sqlVerb', field: 'q', verbs: ['drop  table'] });
    expect(reasonOf(dropTable, { q: 'DROP TABLE users' })).toBe('SQL statement starts with DROP TABLE');
    expect(approvalNeeded(dropTable, { q: 'DROP INDEX i' }).needed).toBe(false);
  });

  it('never matches a non-string field', () => {
    expect(sqlNeeds(42)).toBe(false);
    expect(sqlNeeds({ text: 'DELETE FROM t' })).toBe(false);
    expect(sqlNeeds('')).toBe(false);
  });

  it('treats unclosed quotes and comments as running to the end', () => {
    expect(sqlNeeds("SELECT 'unclosed; DELETE FROM t")).toBe(false);
    expect(sqlNeeds('SELECT 1 /* unclosed; DELETE FROM t')).toBe(false);
    expect(sqlNeeds('DELETE FROM t WHERE x = \'unclosed')).toBe(true);
  });
});

describe('matches', () => {
  const external = policy({ when: 'matches', field: 'recipient', pattern: '@external\\.com$' });

  it('tests the field case-insensitively and names the pattern', () => {
    expect(reasonOf(external, { recipient: 'Bob@EXTERNAL.com' })).toBe('recipient matches /@external\\.com$/');
    expect(approvalNeeded(external, { recipient: 'bob@internal.com' }).needed).toBe(false);
    expect(approvalNeeded(external, { recipient: 'bob@external.com.evil' }).needed).toBe(false);
  });

  it('converts numbers to strings and ignores other non-strings', () => {
    const digits = policy({ when: 'matches', field: 'account', pattern: '^99' });
    expect(approvalNeeded(digits, { account: 991234 }).needed).toBe(true);
    expect(approvalNeeded(digits, { account: 123 }).needed).toBe(false);
    const truthy = policy({ when: 'matches', field: 'flag', pattern: 'true' });
    expect(approvalNeeded(truthy, { flag: true }).needed).toBe(false);
    expect(approvalNeeded(truthy, { flag: { x: 'true' } }).needed).toBe(false);
  });

  it('fails closed on an invalid pattern without throwing, even when the field is missing', () => {
    const broken = policy({ when: 'matches', field: 'recipient', pattern: '([a-z' });
    const check = approvalNeeded(broken, {});
    expect(check.needed).toBe(true);
    expect(check.needed && check.reason).toMatch(/^invalid approval rule pattern "\(\[a-z" for recipient/);
  });
});

describe('equals', () => {
  const risky = policy({ when: 'equals', field: 'env', values: ['production', 7, null, { region: 'eu', tier: 1 }] });

  it('matches any listed value by JSON equality', () => {
    expect(reasonOf(risky, { env: 'production' })).toBe('env is "production"');
    expect(approvalNeeded(risky, { env: 7 }).needed).toBe(true);
    expect(approvalNeeded(risky, { env: null }).needed).toBe(true);
    expect(approvalNeeded(risky, { env: { tier: 1, region: 'eu' } }).needed).toBe(true);
  });

  it('does not match other values, other types or case', () => {
    expect(approvalNeeded(risky, { env: 'Production' }).needed).toBe(false);
    expect(approvalNeeded(risky, { env: '7' }).needed).toBe(false);
    expect(approvalNeeded(risky, { env: { region: 'eu', tier: 1, extra: true } }).needed).toBe(false);
    expect(approvalNeeded(risky, { env: false }).needed).toBe(false);
  });

  it('matches a whole array value or any of its elements', () => {
    const lists = policy({ when: 'equals', field: 'to', values: [['a', 'b'], 'ceo'] });
    expect(approvalNeeded(lists, { to: ['a', 'b'] }).needed).toBe(true);
    expect(approvalNeeded(lists, { to: ['x', 'ceo'] }).needed).toBe(true);
    expect(approvalNeeded(lists, { to: ['b', 'a'] }).needed).toBe(false);
  });
});

describe('defaultApprovalPolicy', () => {
  it('requires approval for write-like file system and database tools', () => {
    expect(defaultApprovalPolicy({ type: 'file_system' })).toBe('always');
    expect(defaultApprovalPolicy({ type: 'database', readOnly: false })).toBe('always');
  });

  it('needs none for read-only tools or other types', () => {
    expect(defaultApprovalPolicy({ type: 'database', readOnly: true })).toBe('never');
    expect(defaultApprovalPolicy({ type: 'file_system', readOnly: true })).toBe('never');
    for (const type of ['llm', 'external', 'skill', 'sub_agent', 'custom'] as const) expect(defaultApprovalPolicy({ type })).toBe('never');
  });
});

describe('describePolicy', () => {
  it('names fixed policies', () => {
    expect(describePolicy(undefined)).toBe('never');
    expect(describePolicy('never')).toBe('never');
    expect(describePolicy('always')).toBe('always');
  });

  it('lists each rule on one line', () => {
    const rules = policy(
      { when: 'pathPrefix', field: 'path', prefixes: ['/etc', '/var'] },
      { when: 'above', field: 'amount', threshold: 1000 },
      { when: 'sqlVerb', field: 'sql', verbs: ['delete', 'drop table'] },
      { when: 'matches', field: 'to', pattern: '@external\\.com$' },
      { when: 'equals', field: 'env', values: ['prod', 3] },
    );
    expect(describePolicy(rules)).toBe(
      'when path under /etc or /var or not a plain absolute path; when amount > 1000; when sql runs DELETE or DROP TABLE or anything but one plain read; when to matches /@external\\.com$/; when env is "prod" or 3',
    );
    expect(describePolicy(policy({ when: 'matches', field: 'x', pattern: 'a\nb' }))).not.toContain('\n');
  });
});
