import { describe, expect, it } from 'vitest';
import type { ApprovalPolicy, ApprovalRule } from '../../src/domain/approval/approval';
import { approvalNeeded, defaultApprovalPolicy, describePolicy } from '../../src/domain/approval/approval-policy';

const policy = (...anyOf: ApprovalRule[]): ApprovalPolicy => ({ anyOf: anyOf as [ApprovalRule, ...ApprovalRule[]] });
const overThousand = policy({ when: 'above', field: 'amount', threshold: 1000 });
const amountOver = (amount: unknown): boolean => approvalNeeded(overThousand, { amount }).needed;
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
    const both = policy(
      { when: 'equals', field: 'mode', values: ['force'] },
      { when: 'above', field: 'amount', threshold: 10 },
    );
    expect(reasonOf(both, { mode: 'force', amount: 50 })).toBe('mode is "force"');
    expect(reasonOf(both, { mode: 'safe', amount: 50 })).toBe('amount 50 is above 10');
    expect(approvalNeeded(both, { mode: 'safe', amount: 5 })).toEqual({ needed: false });
  });
});

describe('fields', () => {
  it('follows dotted paths into nested objects', () => {
    const nested = policy({ when: 'pathPrefix', field: 'target.file.path', prefixes: ['/etc'] });
    expect(reasonOf(nested, { target: { file: { path: '/etc/hosts' } } })).toBe(
      'target.file.path "/etc/hosts" is under "/etc"',
    );
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
    expect(defaultApprovalPolicy({ type: 'database', effects: 'once' })).toBe('always');
  });

  it('needs none for read-only tools or other types', () => {
    expect(defaultApprovalPolicy({ type: 'database', effects: 'none' })).toBe('never');
    expect(defaultApprovalPolicy({ type: 'file_system', effects: 'none' })).toBe('never');
    for (const type of ['llm', 'external', 'skill', 'sub_agent', 'custom'] as const)
      expect(defaultApprovalPolicy({ type })).toBe('never');
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
