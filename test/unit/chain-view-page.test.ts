import { describe, expect, it } from 'vitest';
import type { ApprovalRecord } from '../../src/domain/approval/approval';
import { ReasoningChain, type ReasoningStep, type Visibility } from '../../src/domain/chain/chain';
import { chainPage } from '../../src/domain/chain/chain-page';
import { IncrementalChainView, viewChain } from '../../src/domain/chain/chain-view';
import type { ViewerRole } from '../../src/domain/identity/people';

// A page viewed from stored facts must equal the same page of the whole chain's view: the chain
// store serves pages this way, and a difference would show a role more than its view allows.
const CARD = '4111111111111111';
const KEY = 'AKIAIOSFODNN7EXAMPLE';
const full: Visibility = { level: 'full' };

const step = (n: number, visibility: Visibility, body: Record<string, unknown>): ReasoningStep =>
  ({
    stepId: `s${n}`,
    stepNumber: n,
    timestamp: `2025-01-01T00:00:${String(n).padStart(2, '0')}.000Z`,
    iteration: 0,
    visibility,
    ...body,
  }) as ReasoningStep;

const approval: ApprovalRecord = {
  callId: 'c2',
  stepId: 's7',
  toolName: 'charge',
  arguments: { card: { number: CARD } },
  argumentsHash: 'abc123',
  reason: 'always',
  approverRoles: [],
  runId: 'run-1',
  requestedAt: '2025-01-01T00:00:00.000Z',
  expiresAt: '2025-01-02T00:00:00.000Z',
  status: 'approved',
  decidedBy: { id: 'ops', roles: [] },
};

function sample(): ReasoningChain {
  return ReasoningChain.parse({
    schemaVersion: 1,
    chainId: 'wf-1',
    agentName: 'helper',
    task: `Charge card ${CARD} (key ${KEY})`,
    startedAt: '2025-01-01T00:00:00.000Z',
    status: 'completed',
    approvals: [approval],
    steps: [
      // The thought quotes the card before the call that marks it sensitive.
      step(1, full, { type: 'thinking', thought: `I will charge ${CARD}` }),
      step(2, { level: 'hidden' }, { type: 'thinking', thought: 'private' }),
      step(3, full, {
        type: 'tool_call',
        model: 'claude-x',
        toolCall: { toolType: 'llm', toolName: 'claude-x', arguments: { prompt: 'p' }, correlationId: 'm1' },
      }),
      step(4, full, {
        type: 'tool_result',
        toolResult: { correlationId: 'm1', success: true, result: { text: 'ok' }, durationMs: 3 },
      }),
      step(
        5,
        { level: 'summary', summary: 'Looked it up' },
        {
          type: 'tool_call',
          toolCall: { toolType: 'external', toolName: 'lookup', arguments: { q: KEY }, correlationId: 'c1' },
        },
      ),
      step(6, full, {
        type: 'tool_result',
        toolResult: { correlationId: 'c1', success: false, result: null, error: 'no such', durationMs: 1 },
      }),
      step(7, full, {
        type: 'tool_call',
        toolCall: {
          toolType: 'external',
          toolName: 'charge',
          arguments: { card: { number: CARD }, amount: 5 },
          correlationId: 'c2',
          sensitiveFields: ['card.number'],
        },
      }),
      step(8, full, {
        type: 'tool_result',
        toolResult: { correlationId: 'c2', success: true, result: { receipt: 'r-1' }, durationMs: 9 },
      }),
      step(9, full, { type: 'synthesis', synthesis: { sources: ['s8'], conclusion: `Charged ${CARD}` } }),
    ],
  });
}

describe('IncrementalChainView.page', () => {
  const chain = sample();
  const { steps, ...head } = chain;
  const hidden = steps.filter((s) => s.visibility.level === 'hidden').length;
  const facts = (() => {
    const view = new IncrementalChainView();
    for (const s of steps) view.add(s);
    for (const record of chain.approvals ?? []) view.addApproval(record);
    // Through JSON, as the store keeps it.
    return JSON.parse(JSON.stringify(view.toFacts()));
  })();

  for (const role of ['end_user', 'developer', 'auditor'] as ViewerRole[])
    it(`equals a page of viewChain for every page, ${role}`, () => {
      const whole = viewChain(chain, role);
      for (let after = 0; after <= steps.length; after++)
        for (const limit of [1, 2, 3, 9]) {
          const raw = chainPage(chain, { afterStep: after, limit });
          const expected = chainPage(whole, { afterStep: after, limit });
          const got = IncrementalChainView.fromFacts(facts).page(head, raw.steps, role, hidden);
          // A raw page may hold a hidden step the view drops: compare the steps the view shows.
          expect(got.steps).toEqual(expected.steps.filter((s) => raw.steps.some((r) => r.stepNumber === s.stepNumber)));
          const { steps: _a, ...gotHead } = got;
          const { steps: _b, ...expectedHead } = expected;
          expect(gotHead).toEqual(expectedHead);
        }
    });

  it('redacts a value in an earlier step once a later call marks it sensitive', () => {
    const view = IncrementalChainView.fromFacts(facts);
    const first = view.page(head, steps.slice(0, 1), 'developer', hidden).steps[0];
    expect(JSON.stringify(first)).not.toContain(CARD);
    const auditor = view.page(head, steps.slice(0, 1), 'auditor', hidden).steps[0];
    expect(JSON.stringify(auditor)).toContain(CARD);
  });
});
