import { describe, expect, it } from 'vitest';
import { MAX_POLICY_ENTRIES } from '../../../src/domain/visibility/visibility-policy';
import { queryLens } from '../../../src/domain/visibility/query-lens';
import type { ViewLens } from '../../../src/domain/visibility/view-lens';

const lensWithTools = (count: number): ViewLens => ({
  view: 'end_user',
  steps: { thinking: 'hidden' },
  tools: Object.fromEntries(Array.from({ length: count }, (_, i) => [`tool_${i}`, { call: 'summary' as const }])),
  toolTypes: {},
  sensitiveFields: {},
  summariesOnly: false,
  decidedBy: { thinking: 'role' },
});

describe('queryLens', () => {
  it('reads no lens as none, and a lens as itself', () => {
    expect(queryLens(undefined)).toBeUndefined();
    expect(queryLens(null)).toBeUndefined();
    expect(queryLens(lensWithTools(1))).toEqual(lensWithTools(1));
  });

  it(`takes ${MAX_POLICY_ENTRIES} tools, and refuses one more with the reason`, () => {
    expect(Object.keys(queryLens(lensWithTools(MAX_POLICY_ENTRIES))!.tools)).toHaveLength(MAX_POLICY_ENTRIES);
    expect(() => queryLens(lensWithTools(MAX_POLICY_ENTRIES + 1))).toThrow(
      new RegExp(`view lens does not parse.*tools: at most ${MAX_POLICY_ENTRIES} entries`),
    );
  });

  it('refuses anything else that is not exactly a lens: a wrong level, an unknown field, not an object', () => {
    expect(() => queryLens({ ...lensWithTools(0), steps: { thinking: 'invisible' } })).toThrow(/steps\.thinking/);
    expect(() => queryLens({ ...lensWithTools(0), showEverything: true })).toThrow(/view lens does not parse/);
    expect(() => queryLens('end_user')).toThrow(/view lens does not parse/);
    expect(() => queryLens([])).toThrow(Error);
  });
});

describe('queryLens for a role', () => {
  it("refuses another view's lens: an auditor's lens masks no tenant field in the developer's view", () => {
    const auditors = { ...lensWithTools(0), view: 'auditor' as const };
    expect(() => queryLens(auditors, 'developer')).toThrow('The view lens is for the auditor view, not developer');
    expect(queryLens(auditors, 'auditor')).toEqual(auditors);
  });
});
