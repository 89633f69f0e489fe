import { describe, expect, it } from 'vitest';
import { AgentStatus, ReasoningChain, ViewerRole, type ApprovalRecord, type ReasoningStep } from '../../src/domain';
import { IncrementalChainView, viewChain, viewStatus } from '../../src/domain/chain/chain-view';

const KEY = 'AKIAIOSFODNN7EXAMPLE';
const CARD = '4111111111111111';
const at = '2026-01-01T00:00:00.000Z';
const step = (
  n: number,
  body: Record<string, unknown>,
  level: 'full' | 'summary' | 'hidden' = 'full',
  summary?: string,
): ReasoningStep =>
  ({
    stepId: `s${n}`,
    stepNumber: n,
    timestamp: at,
    iteration: 1,
    visibility: { level, ...(summary ? { summary } : {}) },
    ...body,
  }) as ReasoningStep;

/** A chain with every shape a view treats differently: sensitive fields, a secret, hidden and summary steps, model calls, a wait for approval. */
const STEPS: ReasoningStep[] = [
  step(1, { type: 'thinking', thought: `I will charge ${CARD} with ${KEY}` }),
  step(2, {
    type: 'tool_call',
    toolCall: { toolType: 'llm', toolName: 'claude', arguments: { prompt: 'hi' }, correlationId: 'm1' },
    usage: { inputTokens: 3, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0.01,
  }),
  step(3, {
    type: 'tool_result',
    toolResult: { correlationId: 'm1', success: true, result: `the card is ${CARD}`, durationMs: 1 },
  }),
  step(4, {
    type: 'tool_call',
    toolCall: {
      toolType: 'external',
      toolName: 'charge_card',
      arguments: { amount: 5, card: { number: CARD } },
      correlationId: 'c1',
      sensitiveFields: ['card.number'],
    },
  }),
  step(5, {
    type: 'thinking',
    thought: 'Waiting for approval of charge_card (call c1): always. Decide with: thoughtline approve wf-1 c1',
  }),
  step(6, {
    type: 'tool_result',
    toolResult: { correlationId: 'c1', success: true, result: { ok: true, card: { number: CARD } }, durationMs: 3 },
  }),
  step(7, { type: 'thinking', thought: `secret note ${CARD}` }, 'hidden'),
  step(
    8,
    {
      type: 'tool_call',
      toolCall: { toolType: 'external', toolName: 'lookup', arguments: { q: 'x' }, correlationId: 'c2' },
    },
    'summary',
    'Looking it up',
  ),
  step(
    9,
    {
      type: 'tool_result',
      toolResult: { correlationId: 'c2', success: false, result: null, error: 'boom', durationMs: 1 },
    },
    'summary',
    'Looked it up',
  ),
  step(10, {
    type: 'tool_call',
    toolCall: {
      toolType: 'external',
      toolName: 'store',
      arguments: { pin: '98765432' },
      correlationId: 'c3',
      sensitiveFields: ['pin'],
    },
  }),
  step(11, { type: 'synthesis', synthesis: { sources: ['s6'], conclusion: `Charged ${CARD}; pin 98765432` } }),
];

const chainOf = (steps: ReasoningStep[]): ReasoningChain =>
  ReasoningChain.parse({
    schemaVersion: 1,
    chainId: 'wf-1',
    agentName: 'payer',
    task: 'Pay',
    startedAt: at,
    status: 'thinking',
    steps,
  });

describe('IncrementalChainView: a streamed step is what the chain query shows', () => {
  it.each(ViewerRole.options)('%s: each step, viewed as it lands, equals viewChain of the chain so far', (role) => {
    const live = new IncrementalChainView();
    for (let n = 1; n <= STEPS.length; n++) {
      const raw = STEPS[n - 1]!;
      live.add(raw);
      const expected = viewChain(chainOf(STEPS.slice(0, n)), role).steps.find((s) => s.stepNumber === n);
      expect(live.step(raw, role)).toEqual(expected);
    }
  });

  it.each(ViewerRole.options)(
    '%s: every step viewed after the whole chain equals viewChain of the whole chain',
    (role) => {
      const live = new IncrementalChainView();
      for (const raw of STEPS) live.add(raw);
      const viewed = STEPS.map((raw) => live.step(raw, role)).filter((s) => s !== undefined);
      expect(viewed).toEqual(viewChain(chainOf(STEPS), role).steps);
    },
  );

  it('the views differ where they must (the test compares something)', () => {
    const live = new IncrementalChainView();
    for (const raw of STEPS) live.add(raw);
    expect(JSON.stringify(live.step(STEPS[0]!, 'auditor'))).toContain(CARD);
    expect(JSON.stringify(live.step(STEPS[0]!, 'developer'))).not.toContain(CARD);
    expect(live.step(STEPS[6]!, 'developer')).toBeUndefined();
    expect(live.step(STEPS[1]!, 'end_user')).not.toHaveProperty('usage');
  });

  it.each(ViewerRole.options)('%s: an approval record is shown as viewStatus shows it', (role) => {
    const record: ApprovalRecord = {
      callId: 'c1',
      stepId: 's4',
      toolName: 'charge_card',
      arguments: { amount: 5, card: { number: CARD }, memo: KEY },
      sensitiveFields: ['card.number'],
      argumentsHash: 'h',
      reason: 'always',
      approverRoles: [],
      runId: 'r',
      requestedAt: at,
      expiresAt: at,
      status: 'pending',
    };
    const live = new IncrementalChainView();
    for (const raw of STEPS.slice(0, 4)) live.add(raw);
    const status = AgentStatus.parse({
      status: 'waiting',
      iteration: 1,
      maxIterations: 5,
      steps: 4,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0,
      model: 'm',
      pendingApprovals: [record],
    });
    expect(live.approval(record, role)).toEqual(viewStatus(status, role, STEPS.slice(0, 4)).pendingApprovals[0]);
  });
});
