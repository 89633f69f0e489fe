import { describe, expect, it } from 'vitest';
import type { ApprovalRecord } from '../../src/domain/approval/approval';
import { ReasoningChain, type ReasoningStep, type Visibility } from '../../src/domain/chain/chain';
import { parseViewerRole, viewChain } from '../../src/domain/chain/chain-view';

const KEY = 'AKIAIOSFODNN7EXAMPLE';
const CARD = '4111111111111111';

type StepBody = Omit<ReasoningStep, 'stepId' | 'stepNumber' | 'timestamp' | 'iteration' | 'visibility'>;
const step = (n: number, visibility: Visibility, body: Record<string, unknown>): ReasoningStep =>
  ({
    stepId: `s${n}`,
    stepNumber: n,
    timestamp: `2025-01-01T00:00:0${n % 10}.000Z`,
    iteration: 0,
    visibility,
    ...(body as StepBody),
  }) as ReasoningStep;
const full: Visibility = { level: 'full' };
const hidden: Visibility = { level: 'hidden' };
const summary = (text?: string): Visibility =>
  text === undefined ? { level: 'summary' } : { level: 'summary', summary: text };
const result = (correlationId: string, value: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'tool_result',
  toolResult: { correlationId, success: true, result: value, durationMs: 5, ...extra },
});

const approval: ApprovalRecord = {
  callId: 'c3',
  stepId: 's10',
  toolName: 'charge',
  arguments: { amount: 5, card: { number: CARD }, memo: `key ${KEY}` },
  argumentsHash: 'abc123',
  reason: 'always',
  approverRoles: [],
  runId: 'run-1',
  requestedAt: '2025-01-01T00:00:00.000Z',
  expiresAt: '2025-01-02T00:00:00.000Z',
  status: 'approved',
  decidedBy: { id: 'ops', roles: [] },
  note: `fine, used ${KEY}`,
};

function sampleChain(): ReasoningChain {
  return ReasoningChain.parse({
    schemaVersion: 1,
    chainId: 'wf-1',
    agentName: 'helper',
    task: `Charge the customer (aws id ${KEY})`,
    startedAt: '2025-01-01T00:00:00.000Z',
    status: 'completed',
    approvals: [approval],
    steps: [
      step(1, full, { type: 'thinking', thought: `Plan: look up the customer with ${KEY}` }),
      step(2, hidden, { type: 'thinking', thought: 'private musing' }),
      step(3, full, {
        type: 'tool_call',
        model: 'claude-x',
        toolCall: {
          toolType: 'llm',
          toolName: 'claude-x',
          arguments: { prompt: 'secret prompt' },
          correlationId: 'm1',
        },
      }),
      step(4, full, { ...result('m1', { text: 'model internals' }), model: 'claude-x' }),
      step(5, summary('Looked up the customer'), {
        type: 'tool_call',
        toolCall: {
          toolType: 'external',
          toolName: 'lookup',
          arguments: { email: 'a@b.c', card: { number: CARD } },
          correlationId: 'c1',
          sensitiveFields: ['card.number'],
        },
      }),
      step(6, summary('Found the customer'), result('c1', { name: 'Ann', card: { number: CARD } })),
      step(7, hidden, {
        type: 'tool_call',
        toolCall: {
          toolType: 'database',
          toolName: 'login',
          arguments: { user: 'ann', password: 'hunter22' },
          correlationId: 'c2',
          sensitiveFields: ['password'],
        },
      }),
      step(8, full, result('c2', { ok: true, password: 'hunter22' })),
      step(9, summary(), { type: 'thinking', thought: 'raw thought 9' }),
      step(10, full, {
        type: 'tool_call',
        toolCall: {
          toolType: 'external',
          toolName: 'charge',
          arguments: { amount: 5, card: { number: CARD } },
          correlationId: 'c3',
          sensitiveFields: ['card.number'],
        },
      }),
      step(11, summary('Charged the card'), result('c3', null, { success: false, error: `declined ${CARD}` })),
      step(12, summary(), {
        type: 'tool_result',
        toolResult: { correlationId: 'c9', success: false, result: 'raw', error: 'raw failure', durationMs: 1 },
      }),
      step(13, summary('Answered'), {
        type: 'synthesis',
        synthesis: { sources: ['s6'], conclusion: `Done; key ${KEY}` },
      }),
    ],
  });
}

const byNumber = (chain: ReasoningChain, n: number): ReasoningStep => {
  const found = chain.steps.find((s) => s.stepNumber === n);
  if (!found) throw new Error(`no step ${n} in view`);
  return found;
};

describe('viewChain: auditor', () => {
  const view = viewChain(sampleChain(), 'auditor');

  it('keeps every step, hidden ones included, in full, and marks the view', () => {
    expect(view.steps.map((s) => s.stepNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(byNumber(view, 2)).toMatchObject({ thought: 'private musing' });
    expect(byNumber(view, 9)).toMatchObject({ thought: 'raw thought 9' });
    expect(view.view).toEqual({ role: 'auditor', hiddenSteps: 0 });
  });

  it('shows sensitive fields', () => {
    // A value under a key named `password` is a credential for every role (issue 14, class 5).
    expect(byNumber(view, 7)).toMatchObject({ toolCall: { arguments: { password: '[REDACTED]' } } });
    expect(byNumber(view, 6)).toMatchObject({ toolResult: { result: { card: { number: CARD } } } });
    expect(view.approvals?.[0]?.arguments).toMatchObject({ card: { number: CARD } });
  });

  it('still redacts secrets', () => {
    expect(JSON.stringify(view)).not.toContain(KEY);
    expect(byNumber(view, 1)).toMatchObject({ thought: 'Plan: look up the customer with [REDACTED]' });
    expect(view.approvals?.[0]?.note).toBe('fine, used [REDACTED]');
  });
});

describe('viewChain: developer', () => {
  const view = viewChain(sampleChain(), 'developer');

  it('leaves hidden steps out, keeps the original step numbers and counts what was left out', () => {
    expect(view.steps.map((s) => s.stepNumber)).toEqual([1, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13]);
    expect(view.view).toEqual({ role: 'developer', hiddenSteps: 2 });
  });

  it('shows summary-level and model steps in full detail', () => {
    expect(byNumber(view, 9)).toMatchObject({ thought: 'raw thought 9' });
    expect(byNumber(view, 3)).toMatchObject({ toolCall: { arguments: { prompt: 'secret prompt' } } });
    expect(byNumber(view, 12)).toMatchObject({ toolResult: { result: 'raw', error: 'raw failure' } });
  });

  it('redacts sensitive fields in arguments, matching results (even of a hidden call) and approvals', () => {
    expect(byNumber(view, 5)).toMatchObject({
      toolCall: { arguments: { email: 'a@b.c', card: { number: '[SENSITIVE]' } } },
    });
    expect(byNumber(view, 6)).toMatchObject({
      toolResult: { result: { name: 'Ann', card: { number: '[SENSITIVE]' } } },
    });
    expect(byNumber(view, 8)).toMatchObject({ toolResult: { result: { ok: true, password: '[SENSITIVE]' } } });
    expect(view.approvals?.[0]?.arguments).toEqual({
      amount: 5,
      card: { number: '[SENSITIVE]' },
      memo: 'key [REDACTED]',
    });
    expect(JSON.stringify(view)).not.toContain('hunter22');
  });

  it('redacts secrets everywhere', () => {
    const text = JSON.stringify(view);
    expect(text).not.toContain(KEY);
    expect(view.task).toBe('Charge the customer (aws id [REDACTED])');
  });
});

describe('viewChain: end_user', () => {
  const view = viewChain(sampleChain(), 'end_user');

  it('leaves hidden steps out and keeps the original step numbers', () => {
    expect(view.steps.map((s) => s.stepNumber)).toEqual([1, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13]);
    expect(view.view).toEqual({ role: 'end_user', hiddenSteps: 2 });
  });

  it('shows a summary-level thinking step as its summary, or (working) without one', () => {
    const chain = sampleChain();
    const withSummary = viewChain(
      { ...chain, steps: [step(1, summary('Thinking about it'), { type: 'thinking', thought: 'raw' })] },
      'end_user',
    );
    expect(withSummary.steps[0]).toMatchObject({ thought: 'Thinking about it' });
    expect(byNumber(view, 9)).toMatchObject({ thought: '(working)' });
  });

  it('keeps full thinking steps', () => {
    expect(byNumber(view, 1)).toMatchObject({ thought: 'Plan: look up the customer with [REDACTED]' });
  });

  it('shows a summary-level tool call with no arguments but its name, type and id', () => {
    const call = byNumber(view, 5);
    expect(call.type === 'tool_call' && call.toolCall).toEqual({
      toolType: 'external',
      toolName: 'lookup',
      correlationId: 'c1',
      arguments: {},
    });
  });

  it('shows a summary-level result as its summary, with only a generic error', () => {
    expect(byNumber(view, 6)).toMatchObject({ toolResult: { result: 'Found the customer', success: true } });
    const failed = byNumber(view, 11);
    expect(failed).toMatchObject({
      toolResult: { result: 'Charged the card', success: false, error: 'The step failed.' },
    });
    const bare = byNumber(view, 12);
    expect(bare.type === 'tool_result' && bare.toolResult).toEqual({
      correlationId: 'c9',
      success: false,
      result: null,
      durationMs: 1,
    });
  });

  it('shows model calls at summary level even when they are full', () => {
    const call = byNumber(view, 3);
    expect(call.type === 'tool_call' && call.toolCall).toEqual({
      toolType: 'llm',
      toolName: 'claude-x',
      correlationId: 'm1',
      arguments: {},
    });
    expect(byNumber(view, 4)).toMatchObject({ toolResult: { result: 'Model call (claude-x)' } });
    expect(JSON.stringify(view)).not.toContain('model internals');
    expect(JSON.stringify(view)).not.toContain('secret prompt');
  });

  it('shows full tool steps in full with sensitive fields redacted', () => {
    expect(byNumber(view, 10)).toMatchObject({
      toolCall: { arguments: { amount: 5, card: { number: '[SENSITIVE]' } } },
    });
    expect(byNumber(view, 8)).toMatchObject({ toolResult: { result: { ok: true, password: '[SENSITIVE]' } } });
    expect(view.approvals?.[0]?.arguments).toMatchObject({ card: { number: '[SENSITIVE]' } });
    expect(JSON.stringify(view)).not.toContain(CARD);
  });

  it('shows the synthesis in full, even at summary level, minus secrets', () => {
    expect(byNumber(view, 13)).toMatchObject({ synthesis: { sources: ['s6'], conclusion: 'Done; key [REDACTED]' } });
  });

  it('returns a chain that still parses', () => {
    expect(ReasoningChain.safeParse(view).success).toBe(true);
  });
});

describe('viewChain: general', () => {
  it.each(['end_user', 'developer', 'auditor'] as const)('does not change the input (%s)', (role) => {
    const chain = sampleChain();
    const before = structuredClone(chain);
    const view = viewChain(chain, role);
    expect(chain).toEqual(before);
    expect(view.steps[0]).not.toBe(chain.steps[0]);
    expect(view.approvals?.[0]).not.toBe(chain.approvals?.[0]);
  });

  it("keeps a routed ask_model call's reason for developers and auditors, and drops it for the end user", () => {
    const chain = ReasoningChain.parse({
      ...sampleChain(),
      steps: [
        step(1, full, {
          type: 'tool_call',
          toolCall: {
            toolType: 'llm',
            toolName: 'ask_model',
            arguments: { model: 'fast', prompt: 'q' },
            correlationId: 'a1',
            routed: 'task t1 is low complexity: fast, the cheapest model of tier low or above',
          },
        }),
      ],
    });
    const routedIn = (role: 'end_user' | 'developer' | 'auditor') => {
      const first = viewChain(chain, role).steps[0];
      return first?.type === 'tool_call' ? first.toolCall.routed : 'not a call';
    };
    expect(routedIn('auditor')).toContain('task t1 is low complexity');
    expect(routedIn('developer')).toContain('task t1 is low complexity');
    expect(routedIn('end_user')).toBeUndefined();
  });

  it('counts the steps an earlier view left out too', () => {
    const developerView = viewChain(sampleChain(), 'developer');
    expect(viewChain(developerView, 'auditor').view).toEqual({ role: 'auditor', hiddenSteps: 2 });
  });

  it('leaves approvals absent when the chain has none', () => {
    const { approvals: _omitted, ...chain } = sampleChain();
    expect(viewChain(chain, 'end_user')).not.toHaveProperty('approvals');
  });
});

describe('parseViewerRole', () => {
  it('accepts each role', () => {
    expect(parseViewerRole('end_user')).toBe('end_user');
    expect(parseViewerRole(' developer ')).toBe('developer');
    expect(parseViewerRole('auditor')).toBe('auditor');
  });

  it('rejects anything else and lists the valid roles', () => {
    expect(() => parseViewerRole('admin')).toThrow(
      'Unknown viewer role "admin". Valid roles: end_user, developer, auditor.',
    );
    expect(() => parseViewerRole('End_User')).toThrow(/Valid roles/);
  });
});
