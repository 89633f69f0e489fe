import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it, vi } from 'vitest';
import type { AgentInput, AgentStatus } from '../../../../src/domain';
import { SentConversations } from '../../../../src/workflows/core/state/sent-conversations';
import { RunState } from '../../../../src/workflows/core/state/run-state';
import { SubAgentTree } from '../../../../src/workflows/delegation/sub-agent-tree';
import { ApprovalGate } from '../../../../src/workflows/people/approval-gate';
import { BudgetDesk } from '../../../../src/workflows/people/budget-desk';
import { DecisionSignatures } from '../../../../src/workflows/people/decision-signatures';
import { QuestionDesk } from '../../../../src/workflows/people/question-desk';
import { StallQuestion } from '../../../../src/workflows/people/stall-question';
import { SteeringInbox } from '../../../../src/workflows/people/steering-inbox';
import { MAX_REFUSED_MESSAGES_RECORDED, messageHandlers } from '../../../../src/workflows/run/handlers';
import type { Interrupts } from '../../../../src/workflows/run/interrupts';
import { HOSTILE_PAYLOADS } from '../../../helpers/hostile-payloads';
import { testChainBuilder } from '../../../helpers/test-chain-builder';

function run() {
  const chain = testChainBuilder();
  const state = new RunState('m', [], 0);
  const progress = { details: vi.fn(), publish: vi.fn() };
  const interrupts = { cancelAfterGrace: vi.fn() };
  const people = {
    gate: new ApprovalGate(chain, 'run-1', () => '2026-01-01T00:00:00.000Z'),
    desk: new QuestionDesk(),
    inbox: new SteeringInbox(),
    stall: new StallQuestion(),
    budget: new BudgetDesk(),
    signatures: new DecisionSignatures(undefined, 'wf-1'),
  };
  const tree = new SubAgentTree(chain, [{ agentName: 'a', workflowId: 'wf-1' }]);
  const conversations = new SentConversations();
  const ctx = {
    input: { cancelGraceMs: 500 } as AgentInput,
    workflowId: 'wf-1',
    chain,
    state,
    progress,
    conversations,
    resultsInHistory: new Set<string>(),
  };
  const h = messageHandlers(
    ctx,
    people,
    tree,
    interrupts as unknown as Interrupts,
    () => ({ status: 'running' }) as unknown as AgentStatus,
  );
  return { h, chain, state, progress, interrupts, people, conversations };
}

/** An update handler may fail its update (an ApplicationFailure); anything else thrown would fail the workflow task. */
function expectUpdateHandlerTotal(call: () => unknown): void {
  try {
    call();
  } catch (err) {
    expect(err).toBeInstanceOf(ApplicationFailure);
  }
}

describe('message handlers are total over hostile payloads', () => {
  describe.each(HOSTILE_PAYLOADS)('$name', ({ value }) => {
    it('cancel either refuses it (one visible step, no cancel) or reads it as text within the limit', () => {
      const { h, chain, state, interrupts } = run();
      expect(() => h.cancel(value())).not.toThrow();
      const thoughts = chain.snapshot().steps.map((s) => (s.type === 'thinking' ? s.thought : ''));
      if (state.cancelRequested === undefined) {
        expect(interrupts.cancelAfterGrace).not.toHaveBeenCalled();
        expect(thoughts).toEqual([expect.stringContaining('Refused a "cancel" message')]);
        h.cancel({ reason: 'done', by: 'alice' });
        expect(state.cancelRequested).toBe('done, by alice');
      } else {
        expect(typeof state.cancelRequested).toBe('string');
        expect(state.cancelRequested.length).toBeLessThanOrEqual(2_010);
        expect(thoughts).toEqual([expect.stringContaining('Cancel requested')]);
      }
      expect(interrupts.cancelAfterGrace).toHaveBeenCalledOnce();
    });

    it('steer queues at most a bounded string instruction, and a later valid steer still queues', () => {
      const { h, people } = run();
      expect(() => h.steer(value())).not.toThrow();
      for (const { text, by } of people.inbox.waiting) {
        expect(typeof text).toBe('string');
        expect(text.length).toBeLessThanOrEqual(4_000);
        if (by !== undefined) expect(typeof by === 'string' && by.length <= 200).toBe(true);
      }
      h.steer({ text: 'focus', by: 'bob' });
      expect(people.inbox.waiting.at(-1)).toEqual({ text: 'focus', by: 'bob' });
    });

    it('subAgentApprovals is ignored', () => {
      const { h, progress } = run();
      expect(() => h.subAgentApprovals(value())).not.toThrow();
      expect(progress.publish).not.toHaveBeenCalled();
    });

    it('each update validator refuses it with an Error, and each update handler fails at most the update', () => {
      const { h, chain } = run();
      for (const update of [h.resolveStall, h.approveToolCall, h.answer, h.raiseBudget]) {
        expect(() => update.validator(value())).toThrow(Error);
        expectUpdateHandlerTotal(() => update.handler(value()));
      }
      expect(chain.snapshot().approvals ?? []).toEqual([]);
    });

    it('the chain query answers the default or a clear error, never anything else', () => {
      const { h } = run();
      try {
        expect(h.chain(value()).steps).toEqual([]);
      } catch (err) {
        expect(String((err as Error).message)).toMatch(/viewer role/i);
      }
    });
  });

  it('a payload without a prototype that carries valid fields is read like a plain one', () => {
    const { h, state, people } = run();
    h.steer(Object.assign(Object.create(null), { text: 'plain', by: 'carol' }));
    expect(people.inbox.waiting).toEqual([{ text: 'plain', by: 'carol' }]);
    h.cancel(Object.assign(Object.create(null), { reason: 'r' }));
    expect(state.cancelRequested).toBe('r');
  });

  it('valid cancels read as before: none, empty, a number as reason, a null by', () => {
    for (const [payload, expected] of [
      [undefined, 'no reason given'],
      [{}, 'no reason given'],
      [{ reason: 7 }, '7'],
      [{ reason: 'x', by: null }, 'x'],
      [{ reason: 'x', by: '' }, 'x'],
    ] as const) {
      const { h, state } = run();
      h.cancel(payload);
      expect(state.cancelRequested).toBe(expected);
    }
  });

  it('a cancel reason past the limit is cut with a marker', () => {
    const { h, state } = run();
    h.cancel({ reason: 'r'.repeat(50_000), by: 'b'.repeat(50_000) });
    expect(state.cancelRequested!.length).toBeLessThan(2_100);
    expect(state.cancelRequested).toContain('[…cut]');
  });

  it('refused messages are recorded up to the limit, then only counted', () => {
    const { h, chain } = run();
    for (let i = 0; i < 500; i++) h.cancel(null);
    expect(chain.snapshot().steps).toHaveLength(MAX_REFUSED_MESSAGES_RECORDED + 1);
  });

  it('the approval handler applies a valid decision as before', () => {
    const { h, people, chain } = run();
    people.gate.open(
      [
        {
          callId: 'c1',
          stepId: 's1',
          toolName: 'rm',
          arguments: {},
          argumentsHash: 'h',
          reason: 'always',
          approverRoles: [],
        },
      ],
      '2026-01-02T00:00:00.000Z',
    );
    const decision = { callId: 'c1', approved: false, by: { id: 'dana', roles: [] }, argumentsHash: 'h', reason: 'no' };
    expect(() => h.approveToolCall.validator(decision)).not.toThrow();
    expect(h.approveToolCall.handler(decision)).toMatchObject({
      status: 'rejected',
      note: 'no',
      decidedBy: { id: 'dana' },
    });
    expect(chain.snapshot().steps.at(-1)).toMatchObject({ thought: 'Rejected by dana: rm (call c1): no' });
  });
});

describe('the modelConversation query', () => {
  it('answers any payload: the conversation sent with that hash, else null', () => {
    const { h, conversations } = run();
    const messages = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hello' }] }];
    const sent = conversations.reference(messages);
    expect(h.conversation(sent.hash)).toEqual(messages);
    for (const payload of [undefined, null, 42, {}, ['x'], 'no such hash', sent.baseHash])
      expect(h.conversation(payload)).toBeNull();
  });
});

describe('the modelContext query', () => {
  it('answers any payload: the system prompt and tools sent under that hash, else null', () => {
    const { h, conversations } = run();
    const context = { system: `You help. ${'Be brief. '.repeat(40)}`, tools: [] };
    const { hash } = conversations.context(context)!;
    expect(h.context(hash)).toEqual(context);
    for (const payload of [undefined, null, 42, {}, ['x'], 'no such hash', { hash }])
      expect(h.context(payload)).toBeNull();
  });
});
