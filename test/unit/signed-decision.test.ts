import { ed25519 } from '@noble/curves/ed25519';
import { describe, expect, it } from 'vitest';
import {
  base64UrlDecode,
  base64UrlEncode,
  signDecision,
  verifyDecisionSignature,
  type DecisionSignature,
  type SignedDecisionKind,
} from '../../src/domain/approval/signed-decision';

const seed = new Uint8Array(32).map((_, i) => i + 1);
const otherSeed = new Uint8Array(32).map((_, i) => 200 - i);
const key = { keyId: 'k1', seed };
const policy = { publicKeys: { k1: base64UrlEncode(ed25519.getPublicKey(seed)) } };
const now = Date.parse('2026-11-22T15:00:00.000Z');
const issuedAt = '2026-11-22T14:59:00.000Z';
const wf = 'agent-1';

const approval = {
  callId: 'toolu_1',
  approved: true,
  argumentsHash: 'sha256:abc',
  reason: 'fine',
  by: { id: 'alice', roles: ['ops'] },
};
const answer = { text: 'Use the blue one.', by: 'alice', roles: ['ops'], callId: 'toolu_q' };
const steer = { text: 'Stop after this step.', by: 'alice', roles: ['ops'], nonce: 'n-1' };
const budget = {
  pauseId: 'token_budget@2026-11-22T14:58:00.000Z',
  tokens: 5_000,
  costUsd: 0.5,
  note: 'one more try',
  by: { id: 'alice', roles: ['finance'] },
};
const payloads: Record<SignedDecisionKind, object> = { approval, answer, steer, budget };

const verify = (kind: SignedDecisionKind, payload: unknown, at = now, workflowId = wf) =>
  verifyDecisionSignature(kind, workflowId, payload, policy, at);
const reasonOf = (result: ReturnType<typeof verify>) => (result.ok ? 'ok' : result.reason);

describe('verifyDecisionSignature', () => {
  it.each(['approval', 'answer', 'steer', 'budget'] as const)(
    'accepts a %s signed for this run within the age limit',
    (kind) => {
      expect(verify(kind, signDecision(kind, wf, payloads[kind], key, issuedAt))).toMatchObject({ ok: true });
    },
  );

  it('accepts an approval without a reason (absent fields are left out of the claims)', () => {
    const { reason: _r, ...plain } = approval;
    expect(verify('approval', signDecision('approval', wf, plain, key, issuedAt))).toMatchObject({ ok: true });
  });

  it('binds each kind to what it answers: no answer without its call id, raise without its pause, steer without a nonce (issue 78)', () => {
    const { callId: _c, ...bareAnswer } = answer;
    const { pauseId: _p, ...bareRaise } = budget;
    const { nonce: _n, ...bareSteer } = steer;
    expect(() => signDecision('answer', wf, bareAnswer, key, issuedAt)).toThrow(/lacks a field/);
    expect(() => signDecision('budget', wf, bareRaise, key, issuedAt)).toThrow(/lacks a field/);
    expect(() => signDecision('steer', wf, bareSteer, key, issuedAt)).toThrow(/lacks a field/);
    const raise = signDecision('budget', wf, budget, key, issuedAt);
    expect(reasonOf(verify('budget', { ...raise, pauseId: 'token_budget@2026-11-22T14:59:30.000Z' }))).toMatch(
      /does not match this budget/,
    );
    const said = signDecision('answer', wf, answer, key, issuedAt);
    expect(reasonOf(verify('answer', { ...said, callId: 'toolu_next' }))).toMatch(/does not match this answer/);
  });

  it('names one decision by the same id whichever key signed it, and two decisions by different ids', () => {
    const both = { publicKeys: { ...policy.publicKeys, k2: base64UrlEncode(ed25519.getPublicKey(otherSeed)) } };
    const one = verifyDecisionSignature('steer', wf, signDecision('steer', wf, steer, key, issuedAt), both, now);
    const two = verifyDecisionSignature(
      'steer',
      wf,
      signDecision('steer', wf, steer, { keyId: 'k2', seed: otherSeed }, issuedAt),
      both,
      now,
    );
    const other = verify('steer', signDecision('steer', wf, { ...steer, nonce: 'n-2' }, key, issuedAt));
    expect(one.ok && two.ok && other.ok).toBe(true);
    if (one.ok && two.ok && other.ok) {
      expect(one.decisionId).toMatch(/^[0-9a-f]{32}$/);
      expect(two.decisionId).toBe(one.decisionId);
      expect(other.decisionId).not.toBe(one.decisionId);
      expect(one.issuedMs).toBe(Date.parse(issuedAt));
    }
  });

  describe('refuses, with a reason', () => {
    const signed = signDecision('approval', wf, approval, key, issuedAt) as typeof approval & {
      signature: DecisionSignature;
    };
    const withSignature = (patch: Record<string, unknown>) => ({
      ...signed,
      signature: { ...signed.signature, ...patch },
    });

    it.each([
      ['no signature', approval, /carries no signature/],
      ['a signature that does not parse', { ...approval, signature: 'abc' }, /does not parse/],
      ['a null payload', null, /carries no signature/],
      ['an unknown key id', withSignature({ keyId: 'k9' }), /"k9" is not one this run trusts \(k1\)/],
      ['a key id inherited from Object.prototype', withSignature({ keyId: 'toString' }), /not one this run trusts/],
      ['bad base64', withSignature({ value: 'not base64!' }), /not base64url/],
      ['padded base64', withSignature({ value: `${signed.signature.value}==` }), /not base64url/],
      ['a wrong length', withSignature({ value: base64UrlEncode(new Uint8Array(63)) }), /63 bytes, not 64/],
      ['an unreadable issuedAt', withSignature({ issuedAt: 'yesterday' }), /not an ISO 8601 UTC time/],
      [
        'an issuedAt with an offset',
        withSignature({ issuedAt: '2026-11-22T16:59:00+02:00' }),
        /not an ISO 8601 UTC time/,
      ],
      [
        'a signature over another issuedAt',
        withSignature({ issuedAt: '2026-11-22T14:59:01.000Z' }),
        /does not match this approval/,
      ],
      ['a missing claim field', { ...signed, argumentsHash: undefined }, /lacks a field/],
    ])('%s', (_name, payload, reason) => {
      expect(reasonOf(verify('approval', payload))).toMatch(reason);
    });

    it('a signature older than the maximum age, or more than a minute in the future', () => {
      const at = (iso: string) => signDecision('approval', wf, approval, key, iso);
      expect(reasonOf(verify('approval', at('2026-11-22T14:49:59.999Z')))).toMatch(/more than 600 s ago; decide again/);
      expect(verify('approval', at('2026-11-22T14:50:00.000Z'))).toMatchObject({ ok: true });
      expect(reasonOf(verify('approval', at('2026-11-22T15:01:00.001Z')))).toMatch(/in the future/);
      expect(verify('approval', at('2026-11-22T15:01:00.000Z'))).toMatchObject({ ok: true });
      expect(verifyDecisionSignature('approval', wf, at('2026-11-22T14:59:00.000Z'), policy, now, 30_000).ok).toBe(
        false,
      );
    });

    it('a signature by a key the run does not list under that id (forged with another key)', () => {
      const forged = signDecision('approval', wf, approval, { keyId: 'k1', seed: otherSeed }, issuedAt);
      expect(reasonOf(verify('approval', forged))).toMatch(/does not match this approval for run agent-1/);
    });

    it('a valid signature for another run, or another kind', () => {
      expect(reasonOf(verify('approval', signed, now, 'agent-2'))).toMatch(/does not match/);
      const steerSigned = signDecision('steer', wf, { ...steer, callId: 'toolu_q' }, key, issuedAt);
      expect(reasonOf(verify('answer', steerSigned))).toMatch(/does not match this answer/);
    });

    it('a run public key that is not 32 bytes', () => {
      const result = verifyDecisionSignature('approval', wf, signed, { publicKeys: { k1: 'AAAA' } }, now);
      expect(reasonOf(result)).toMatch(/public key "k1" is not 32 bytes/);
    });

    it('never throws, even for a payload whose getters throw', () => {
      const hostile = {
        get signature(): unknown {
          throw new Error('boom');
        },
      };
      expect(reasonOf(verify('approval', hostile))).toMatch(/could not be checked \(boom\)/);
    });
  });

  describe('claims tampering, field by field', () => {
    const cases: Array<[SignedDecisionKind, string, (p: Record<string, unknown>) => Record<string, unknown>]> = [
      ['approval', 'callId', (p) => ({ ...p, callId: 'toolu_2' })],
      ['approval', 'approved', (p) => ({ ...p, approved: false })],
      ['approval', 'argumentsHash', (p) => ({ ...p, argumentsHash: 'sha256:abd' })],
      ['approval', 'reason', (p) => ({ ...p, reason: 'fine!' })],
      ['approval', 'reason removed', ({ reason: _r, ...p }) => p],
      ['approval', 'by.id', (p) => ({ ...p, by: { id: 'mallory', roles: ['ops'] } })],
      ['approval', 'by.roles', (p) => ({ ...p, by: { id: 'alice', roles: ['ops', 'finance'] } })],
      ['answer', 'text', (p) => ({ ...p, text: 'Use the red one.' })],
      ['answer', 'by', (p) => ({ ...p, by: 'mallory' })],
      ['answer', 'roles', (p) => ({ ...p, roles: ['admin'] })],
      ['answer', 'callId', (p) => ({ ...p, callId: 'toolu_other' })],
      ['answer', 'callId', (p) => ({ ...p, callId: 'toolu_again' })],
      ['steer', 'text', (p) => ({ ...p, text: 'Delete everything.' })],
      ['steer', 'by', (p) => ({ ...p, by: 'mallory' })],
      ['steer', 'roles', (p) => ({ ...p, roles: [] })],
      ['budget', 'tokens', (p) => ({ ...p, tokens: 5_000_000 })],
      ['steer', 'nonce', (p) => ({ ...p, nonce: 'n-other' })],
      ['budget', 'costUsd', (p) => ({ ...p, costUsd: 50 })],
      ['budget', 'iterations added', (p) => ({ ...p, iterations: 100 })],
      ['budget', 'stop added', (p) => ({ ...p, stop: true })],
      ['budget', 'note', (p) => ({ ...p, note: 'all the money' })],
      ['budget', 'pauseId', (p) => ({ ...p, pauseId: 'token_budget@2026-11-22T15:30:00.000Z' })],
      ['budget', 'by.roles', (p) => ({ ...p, by: { id: 'alice', roles: ['admin'] } })],
      ['steer', 'keyId (signature moved to another listed key id)', (p) => p],
    ];
    it.each(cases)('%s: %s', (kind, field, tamper) => {
      const signed = signDecision(kind, wf, payloads[kind], key, issuedAt) as Record<string, unknown>;
      if (field.startsWith('keyId')) {
        const twoKeys = { publicKeys: { ...policy.publicKeys, k2: policy.publicKeys.k1 } };
        const moved = { ...signed, signature: { ...(signed.signature as object), keyId: 'k2' } };
        expect(verifyDecisionSignature(kind, wf, moved, twoKeys, now).ok).toBe(false);
        return;
      }
      expect(verify(kind, signed)).toMatchObject({ ok: true });
      expect(reasonOf(verify(kind, tamper(signed)))).toMatch(/does not match/);
    });
  });
});

describe('several signatures (one per keyring key, during a rotation)', () => {
  const newSeed = new Uint8Array(32).map((_, i) => 90 + i);
  const newKey = { keyId: 'k2', seed: newSeed };
  const k2 = base64UrlEncode(ed25519.getPublicKey(newSeed));
  const signedByBoth = signDecision('approval', wf, approval, [newKey, key], issuedAt);

  it('verifies for a run started before the new key (old key only), during (both) and after (new key only)', () => {
    expect(Array.isArray(signedByBoth.signature) && signedByBoth.signature.map((s) => s.keyId)).toEqual(['k2', 'k1']);
    for (const publicKeys of [{ k1: policy.publicKeys.k1 }, { k2, k1: policy.publicKeys.k1 }, { k2 }] as Array<
      Record<string, string>
    >) {
      expect(verifyDecisionSignature('approval', wf, signedByBoth, { publicKeys }, now)).toMatchObject({ ok: true });
    }
  });

  it('refuses when no listed key signed, when the trusted one is forged, and past the limit of signatures', () => {
    expect(reasonOf(verifyDecisionSignature('approval', wf, signedByBoth, { publicKeys: { k3: k2 } }, now))).toMatch(
      /signing key "k2", "k1" is not one this run trusts \(k3\)/,
    );
    const list = signedByBoth.signature as DecisionSignature[];
    const forgedTrusted = { ...signedByBoth, signature: [list[0], { ...list[1]!, value: list[0]!.value }] };
    expect(
      reasonOf(
        verifyDecisionSignature('approval', wf, forgedTrusted, { publicKeys: { k1: policy.publicKeys.k1 } }, now),
      ),
    ).toMatch(/does not match/);
    const tooMany = { ...signedByBoth, signature: Array.from({ length: 9 }, () => list[1]) };
    expect(reasonOf(verify('approval', tooMany))).toMatch(/does not parse/);
    expect(reasonOf(verify('approval', { ...signedByBoth, signature: [] }))).toMatch(/does not parse/);
  });
});

describe('base64url', () => {
  it('round-trips every length and refuses non-canonical text', () => {
    for (let n = 0; n < 70; n++) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 37 + n) & 0xff);
      const text = base64UrlEncode(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64url'));
      expect(base64UrlDecode(text)).toEqual(bytes);
    }
    expect(base64UrlDecode('AB')).toBeUndefined(); // leftover bits set
    expect(base64UrlDecode('A')).toBeUndefined();
    expect(base64UrlDecode('AA+/')).toBeUndefined();
  });
});
