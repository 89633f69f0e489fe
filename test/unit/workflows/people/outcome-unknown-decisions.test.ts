import { describe, expect, it } from 'vitest';
import { ApprovalGate, MAX_MARKED_RESULT_CHARS } from '../../../../src/workflows/people/approval-gate';
import { decisionClaims } from '../../../../src/domain/approval/signed-decision';
import { testChainBuilder } from '../../../helpers/test-chain-builder';

/** Issue 46: a lost `once` call is settled through the approval gate; only its record takes markDone. */
function gateWith() {
  const gate = new ApprovalGate(testChainBuilder(), 'run-1', () => '2026-01-01T00:00:00.000Z');
  const base = {
    stepId: 's1',
    toolName: 'transfer',
    arguments: {},
    argumentsHash: 'h',
    reason: 'r',
    approverRoles: [],
  };
  gate.open(
    [
      { ...base, callId: 'c1' },
      { ...base, callId: 'c2:outcome-1', kind: 'outcome_unknown' },
    ],
    '2026-01-08T00:00:00.000Z',
  );
  return gate;
}
const by = { id: 'ops', roles: [] };

describe('outcome-unknown decisions', () => {
  it('refuses markDone or a result on an ordinary approval, on a rejection, and a result without markDone', () => {
    const gate = gateWith();
    expect(() => gate.check({ callId: 'c1', approved: true, by, argumentsHash: 'h', markDone: true }, true)).toThrow(
      /markDone and result are for a call whose outcome is unknown/,
    );
    expect(() =>
      gate.check(
        { callId: 'c2:outcome-1', approved: false, by, argumentsHash: 'h', reason: 'x', markDone: true },
        true,
      ),
    ).toThrow(/markDone needs approved: true/);
    expect(() =>
      gate.check({ callId: 'c2:outcome-1', approved: true, by, argumentsHash: 'h', result: 'r' }, true),
    ).toThrow(/A result goes with markDone/);
    expect(() =>
      gate.check(
        {
          callId: 'c2:outcome-1',
          approved: true,
          by,
          argumentsHash: 'h',
          markDone: true,
          result: 'x'.repeat(MAX_MARKED_RESULT_CHARS + 1),
        },
        true,
      ),
    ).toThrow(/at most 4000/);
    expect(() =>
      gate.check(
        { callId: 'c2:outcome-1', approved: true, by, argumentsHash: 'h', markDone: true, result: 'tr_1' },
        true,
      ),
    ).not.toThrow();
  });

  it('records a marked-done decision with its result; the handler ignores markDone on an ordinary record', () => {
    const gate = gateWith();
    const { record } = gate.decide({
      callId: 'c2:outcome-1',
      approved: true,
      by,
      argumentsHash: 'h',
      markDone: true,
      result: 'tr_1',
    });
    expect(record).toMatchObject({ status: 'approved', kind: 'outcome_unknown', markedDone: true, result: 'tr_1' });
    // On replay the validator does not run: a history could hold it, and the handler stays total.
    const ordinary = gate.decide({ callId: 'c1', approved: true, by, argumentsHash: 'h', markDone: true });
    expect(ordinary.record.status).toBe('approved');
    expect(ordinary.record).not.toHaveProperty('markedDone');
  });
});

describe('signed outcome-unknown decisions', () => {
  it('sign markDone and the result, so neither can be added to or changed in a signed approval', () => {
    const claims = (extra: Record<string, unknown>) =>
      decisionClaims('approval', 'wf', { callId: 'c', approved: true, argumentsHash: 'h', by, ...extra }, 'k', 't');
    expect(claims({})).not.toHaveProperty('markDone');
    expect(claims({ markDone: true })).toMatchObject({ markDone: true });
    expect(claims({ markDone: true, result: 'a' })).not.toEqual(claims({ markDone: true, result: 'b' }));
    expect(JSON.stringify(claims({ markDone: true, result: 'tr_1' }))).not.toContain('tr_1');
  });
});
