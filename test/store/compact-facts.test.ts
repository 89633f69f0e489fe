import { describe, expect, it } from 'vitest';
import { ReasoningChain } from '../../src/domain/chain/chain';
import { IncrementalChainView } from '../../src/domain/chain/chain-view';
import type { ViewerRole } from '../../src/domain/identity/people';
import { compactFacts } from '../../src/store/queries/compact-facts';
import { sampleChain, testStep } from './store-test-chains';

describe('compactFacts', () => {
  // The sample plus a plain full-visibility external call and its result: the one neutral call.
  const sample = sampleChain('run-1');
  const chain = ReasoningChain.parse({
    ...sample,
    steps: [
      ...sample.steps,
      testStep(
        10,
        { level: 'full' },
        {
          type: 'tool_call',
          toolCall: { toolType: 'external', toolName: 'plain', arguments: { q: 'x' }, correlationId: 'p1' },
        },
      ),
      testStep(
        11,
        { level: 'full' },
        {
          type: 'tool_result',
          toolResult: { correlationId: 'p1', success: true, result: { ok: 1 }, durationMs: 1 },
        },
      ),
    ],
  });
  const view = new IncrementalChainView();
  for (const step of chain.steps) view.add(step);
  for (const record of chain.approvals ?? []) view.addApproval(record);
  const facts = view.toFacts();
  const { steps, ...head } = chain;

  it('drops only calls the views treat as unknown', () => {
    const compact = compactFacts(facts);
    expect(Object.keys(facts.calls).sort()).toEqual(['c1', 'c2', 'm1', 'p1', 'v1']);
    expect(Object.keys(compact.calls).sort()).toEqual(['c1', 'c2', 'm1', 'v1']);
    expect(compact.values).toEqual(facts.values);
    const withNewKey = { calls: { p1: { ...facts.calls.p1!, extra: true } as never }, values: [] };
    expect(Object.keys(compactFacts(withNewKey).calls)).toEqual(['p1']);
  });

  for (const role of ['end_user', 'developer', 'auditor'] as ViewerRole[])
    it(`leaves every page the same for ${role}`, () => {
      const fromFull = IncrementalChainView.fromFacts(facts).page(head, steps, role, 1);
      const fromCompact = IncrementalChainView.fromFacts(compactFacts(facts)).page(head, steps, role, 1);
      expect(fromCompact).toEqual(fromFull);
    });
});
