import { describe, expect, it } from 'vitest';
import { ContinuedState } from '../../../../src/domain/run/continued-state';
import { RunState } from '../../../../src/workflows/core/state/run-state';
import { carryOver } from '../../../../src/workflows/run/handover/carry-over';
import { ApprovalGate, MAX_DECISION_REASON_CHARS } from '../../../../src/workflows/people/approval-gate';
import { MAX_ANSWER_CHARS, QuestionDesk } from '../../../../src/workflows/people/question-desk';
import {
  MAX_INSTRUCTION_CHARS,
  MAX_QUEUED_CHARS,
  MAX_QUEUED_INSTRUCTIONS,
  SteeringInbox,
} from '../../../../src/workflows/people/steering-inbox';
import { testChainBuilder } from '../../../helpers/test-chain-builder';

const thoughts = (chain: ReturnType<typeof testChainBuilder>) =>
  chain.snapshot().steps.map((s) => (s.type === 'thinking' ? s.thought : ''));

describe('steering limits', () => {
  it(`queues ${MAX_QUEUED_INSTRUCTIONS} instructions, refuses the next, and says so at delivery`, () => {
    const inbox = new SteeringInbox();
    for (let i = 0; i < MAX_QUEUED_INSTRUCTIONS; i++) expect(inbox.receive({ text: `i${i}` })).toBe('queued');
    expect(inbox.receive({ text: 'one too many' })).toBe('refused');
    expect(inbox.receive({ text: 'and another' })).toBe('refused');
    const chain = testChainBuilder();
    expect(inbox.deliver(chain, new RunState('m', [], 0))).toBe(MAX_QUEUED_INSTRUCTIONS);
    expect(thoughts(chain).at(-1)).toMatch(/^2 further steering instructions were refused/);
    // Delivery empties the queue: the next instruction is queued again, and no refusal is repeated.
    expect(inbox.receive({ text: 'after' })).toBe('queued');
    const next = testChainBuilder();
    inbox.deliver(next, new RunState('m', [], 0));
    expect(thoughts(next)).toEqual(['Instruction from a person: after']);
  });

  it('carries the refusal count across a handover: the next Temporal run still says how many were refused', () => {
    const inbox = new SteeringInbox();
    for (let i = 0; i < MAX_QUEUED_INSTRUCTIONS + 3; i++) inbox.receive({ text: `i${i}` });
    const chain = testChainBuilder();
    const carried = ContinuedState.parse(carryOver(new RunState('m', [], 0), chain.snapshot(), [], 'run-1', inbox));
    expect(carried.steering).toHaveLength(MAX_QUEUED_INSTRUCTIONS);
    expect(carried.steeringRefused).toBe(3);
    const next = new SteeringInbox(carried.steering, carried.steeringRefused);
    const nextChain = testChainBuilder();
    next.deliver(nextChain, new RunState('m', [], 0));
    expect(thoughts(nextChain).at(-1)).toMatch(/^3 further steering instructions were refused/);
  });

  it(`refuses an instruction that would take the waiting text past ${MAX_QUEUED_CHARS} characters, but takes one that fits exactly`, () => {
    const inbox = new SteeringInbox();
    const full = MAX_QUEUED_CHARS / MAX_INSTRUCTION_CHARS;
    for (let i = 0; i < full - 1; i++)
      expect(inbox.receive({ text: 'x'.repeat(MAX_INSTRUCTION_CHARS) })).toBe('queued');
    expect(inbox.receive({ text: 'y'.repeat(MAX_INSTRUCTION_CHARS - 1) })).toBe('queued');
    expect(inbox.receive({ text: 'zz' })).toBe('refused');
    expect(inbox.receive({ text: 'z' })).toBe('queued');
    expect(inbox.waiting.reduce((n, i) => n + i.text.length, 0)).toBe(MAX_QUEUED_CHARS);
  });

  it('cuts one instruction past its limit with a marker', () => {
    const inbox = new SteeringInbox();
    inbox.receive({ text: 'a'.repeat(MAX_INSTRUCTION_CHARS + 1) });
    expect(inbox.waiting[0]!.text).toHaveLength(MAX_INSTRUCTION_CHARS);
    expect(inbox.waiting[0]!.text.endsWith('[…cut]')).toBe(true);
  });

  it('520 steers of 4,000 characters (the 2.1 MB of the report) leave at most the limit in one turn', () => {
    const inbox = new SteeringInbox();
    for (let i = 0; i < 520; i++) inbox.receive({ text: 's'.repeat(4_000), by: 'flooder' });
    const state = new RunState('m', [], 0);
    inbox.deliver(testChainBuilder(), state);
    expect(JSON.stringify(state.messages).length).toBeGreaterThan(MAX_QUEUED_CHARS);
    expect(JSON.stringify(state.messages).length).toBeLessThan(MAX_QUEUED_CHARS + 20_000);
    expect(inbox.waiting).toEqual([]);
  });
});

describe('answer and rejection reason limits', () => {
  it(`the answer validator refuses an answer over ${MAX_ANSWER_CHARS} characters`, () => {
    const desk = new QuestionDesk();
    expect(() => desk.check({ text: 'a'.repeat(MAX_ANSWER_CHARS + 1), by: 'ann' })).toThrow(
      `An answer has at most ${MAX_ANSWER_CHARS} characters`,
    );
    // At the limit it passes the length check and reaches the next one (no question is open here).
    expect(() => desk.check({ text: 'a'.repeat(MAX_ANSWER_CHARS), by: 'ann' })).toThrow(
      'This run has no open question.',
    );
  });

  function gateWithPending() {
    const chain = testChainBuilder();
    const gate = new ApprovalGate(chain, 'run-1', () => '2026-01-01T00:00:00.000Z');
    gate.open(
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
    return gate;
  }
  const rejection = (reason: string) => ({
    callId: 'c1',
    approved: false,
    by: { id: 'dana', roles: [] },
    argumentsHash: 'h',
    reason,
  });

  it(`the approval validator refuses a reason over ${MAX_DECISION_REASON_CHARS} characters and takes one at the limit`, () => {
    const gate = gateWithPending();
    expect(() => gate.check(rejection('r'.repeat(MAX_DECISION_REASON_CHARS + 1)), true)).toThrow(
      `at most ${MAX_DECISION_REASON_CHARS} characters`,
    );
    expect(() => gate.check(rejection('r'.repeat(MAX_DECISION_REASON_CHARS)), true)).not.toThrow();
  });

  it('the approval handler cuts a reason past the limit (a history from before the limit) with a marker', () => {
    const { record } = gateWithPending().decide(rejection('r'.repeat(100_000)));
    expect(record.note).toHaveLength(MAX_DECISION_REASON_CHARS);
    expect(record.note!.endsWith('[…cut]')).toBe(true);
  });
});
