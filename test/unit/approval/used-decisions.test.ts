import { describe, expect, it } from 'vitest';
import { rolesInWords, roleProblem } from '../../../src/domain/approval/decision-roles';
import { DEFAULT_SIGNATURE_MAX_AGE_MS, type SignedDecisionKind } from '../../../src/domain/approval/signed-decision';
import {
  forgetExpired,
  MAX_USED_DECISIONS,
  MAX_USED_STEERS,
  reuseProblem,
  useDecision,
  type UsedDecisions,
} from '../../../src/domain/approval/used-decisions';

const now = Date.parse('2026-11-28T12:00:00.000Z');
const fresh = (i: number, kind: SignedDecisionKind = 'approval') => ({ id: `d${i}`, issuedMs: now - 1_000, kind });

describe('used decisions: each signed decision once, remembered within the age limit only', () => {
  it('accepts a decision once and refuses its second use, with a reason', () => {
    const first = useDecision([], fresh(1), now);
    expect(first).toEqual({ state: [fresh(1)], accepted: true });
    expect(useDecision(first.state, fresh(1), now).accepted).toBe(false);
    expect(reuseProblem(first.state, fresh(1), now)).toMatch(
      /^this signed decision \(d1\) was already used in this run/,
    );
    expect(reuseProblem(first.state, fresh(2), now)).toBeUndefined();
  });

  it('forgets a decision past the age limit (the verifier refuses it anyway), and keeps one just inside', () => {
    const edge = { id: 'edge', issuedMs: now - DEFAULT_SIGNATURE_MAX_AGE_MS, kind: 'steer' as const };
    const old = { id: 'old', issuedMs: now - DEFAULT_SIGNATURE_MAX_AGE_MS - 1, kind: 'steer' as const };
    expect(forgetExpired([old, edge], now)).toEqual([edge]);
    expect(useDecision([old, edge], fresh(3), now).state).toEqual([edge, fresh(3)]);
  });

  it(`holds at most ${MAX_USED_DECISIONS} live decisions: the next is refused, never an old one forgotten early`, () => {
    let state: UsedDecisions = [];
    for (let i = 0; i < MAX_USED_DECISIONS; i++) state = useDecision(state, fresh(i), now).state;
    expect(state).toHaveLength(MAX_USED_DECISIONS);
    const full = useDecision(state, fresh(MAX_USED_DECISIONS), now);
    expect(full.accepted).toBe(false);
    expect(full.state).toHaveLength(MAX_USED_DECISIONS);
    expect(reuseProblem(state, fresh(MAX_USED_DECISIONS), now)).toMatch(/as many as it remembers/);
    expect(reuseProblem(state, fresh(0), now)).toMatch(/already used/);
    // Once they age out, room comes back.
    expect(useDecision(state, fresh(999), now + DEFAULT_SIGNATURE_MAX_AGE_MS + 2_000).state).toEqual([fresh(999)]);
  });

  it('keeps room for approvals, answers and raises however many steers are signed: a full steering budget still accepts them', () => {
    // What someone allowed to steer can do: sign instructions until the run refuses them.
    let state: UsedDecisions = [];
    for (let i = 0; i < MAX_USED_DECISIONS; i++) state = useDecision(state, fresh(i, 'steer'), now).state;
    expect(useDecision(state, fresh(1_000, 'steer'), now).accepted).toBe(false);
    for (const kind of ['approval', 'answer', 'budget'] as const) {
      const next = useDecision(state, fresh(2_000 + state.length, kind), now);
      expect(next.accepted, kind).toBe(true);
      state = next.state;
    }
    expect(state.filter((d) => d.kind === 'steer')).toHaveLength(MAX_USED_STEERS);
    expect(reuseProblem(state, fresh(1_000, 'steer'), now)).toMatch(
      new RegExp(`^this run accepted ${MAX_USED_STEERS} signed instructions .* for steering`),
    );
    // The rest of the record is the others', up to the total bound; then nothing more.
    while (state.length < MAX_USED_DECISIONS)
      state = useDecision(state, fresh(3_000 + state.length, 'budget'), now).state;
    expect(useDecision(state, fresh(9_999, 'approval'), now).accepted).toBe(false);
  });

  it('counts an entry carried without a kind (from before the steering budget) as a steer', () => {
    const carried: UsedDecisions = Array.from({ length: MAX_USED_STEERS }, (_, i) => ({
      id: `old${i}`,
      issuedMs: now - 1_000,
    }));
    expect(useDecision(carried, fresh(1, 'steer'), now).accepted).toBe(false);
    expect(useDecision(carried, fresh(1, 'approval'), now).accepted).toBe(true);
  });
});

describe('decision roles: only a verified signature makes roles count', () => {
  it('refuses claimed roles where a rule needs one, names the role, and lets any role pass a rule that needs none', () => {
    const mallory = { id: 'mallory', roles: ['ops'], rolesVerified: false };
    expect(roleProblem(mallory, ['ops'], 'approve')).toMatch(
      /^mallory may not approve: it needs one of the roles ops, verified by a signature .*; mallory claimed ops, not verified\.$/,
    );
    expect(roleProblem(mallory, [], 'approve')).toBeUndefined();
    expect(roleProblem({ ...mallory, rolesVerified: true }, ['ops'], 'approve')).toBeUndefined();
    expect(roleProblem({ id: 'bob', roles: ['dev'], rolesVerified: true }, ['ops'], 'approve')).toBe(
      'bob may not approve: it needs one of the roles ops; they have dev.',
    );
  });

  it('shows claimed roles as claimed, verified ones plainly', () => {
    expect(rolesInWords({ roles: ['ops'], rolesVerified: false })).toBe(' (claimed: ops, not verified)');
    expect(rolesInWords({ roles: ['ops'], rolesVerified: true })).toBe(' (ops)');
    expect(rolesInWords({ roles: [], rolesVerified: false })).toBe('');
  });
});
