import { describe, expect, it } from 'vitest';
import { ApprovalBody } from '../../../src/server/api-schemas';

const hash = 'sha256:abc';

describe('the approval route’s body', () => {
  it('takes markDone and a result for a call that took effect', () => {
    expect(
      ApprovalBody.parse({ approved: true, argumentsHash: hash, markDone: true, result: 'transfer tx-9' }),
    ).toEqual({
      approved: true,
      argumentsHash: hash,
      markDone: true,
      result: 'transfer tx-9',
    });
  });

  it('refuses a result without markDone, markDone on a rejection, and a result over 4,000 characters', () => {
    expect(ApprovalBody.safeParse({ approved: true, argumentsHash: hash, result: 'x' }).success).toBe(false);
    expect(ApprovalBody.safeParse({ approved: false, argumentsHash: hash, reason: 'no', markDone: true }).success).toBe(
      false,
    );
    expect(
      ApprovalBody.safeParse({ approved: true, argumentsHash: hash, markDone: true, result: 'x'.repeat(4_000) })
        .success,
    ).toBe(true);
    expect(
      ApprovalBody.safeParse({ approved: true, argumentsHash: hash, markDone: true, result: 'x'.repeat(4_001) })
        .success,
    ).toBe(false);
  });
});
