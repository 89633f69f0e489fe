import { describe, expect, it } from 'vitest';
import { AgentInput, ContinuedState, type AgentResult, type ContinuedState as Carried } from '../../../../src/domain';
import { MAX_CARRIED_BYTES, MAX_TASK_BYTES, jsonBytes } from '../../../../src/domain/run/payload-size';
import { RunState } from '../../../../src/workflows/core/state/run-state';
import {
  CARRY_LEVELS,
  carryOver,
  handoverLimit,
  planHandover,
  shortenChain,
  type CarryLevel,
} from '../../../../src/workflows/run/handover/carry-over';
import { fitResult } from '../../../../src/workflows/run/result/fit-result';
import { ChainBuilder } from '../../../../src/workflows/core/chain/chain-builder';

const full = { level: 'full' } as const;
const progressed = { iterationsThisRun: 1, historyBytes: 10_000 };

function run(task: string, { results = 0, resultChars = 100, cacheChars = 0 } = {}) {
  let id = 0;
  // The chain carries the task too, as a real run's does.
  const chain = new ChainBuilder(
    { now: () => '2026-01-01T00:00:00.000Z', newId: () => `id-${++id}` },
    { chainId: 'wf-1', agentName: 'a', task },
  );
  chain.iteration = 1;
  for (let i = 0; i < results; i++) {
    chain.thinking(`thought ${i} ${'t'.repeat(resultChars)}`, full);
    chain.toolCall(
      { toolType: 'external', toolName: 'lookup', arguments: { q: 'a'.repeat(resultChars) }, correlationId: `c${i}` },
      full,
    );
    chain.toolResult({ correlationId: `c${i}`, success: true, result: 'r'.repeat(resultChars), durationMs: 1 }, full);
  }
  const state = new RunState('m', [{ role: 'user', content: [{ type: 'text', text: task }] }], 0);
  if (cacheChars > 0)
    state.remember({ key: 'k', stepId: 's', content: 'c'.repeat(cacheChars), isError: false, result: 'x' });
  const carry = (level: CarryLevel): Carried => carryOver(state, chain.snapshot(), [], 'run-1', undefined, level);
  return { chain, state, carry };
}

const input = (task: string, extra: Record<string, unknown> = {}) => AgentInput.parse({ task, ...extra });
/** Bytes of the next run's input at `level`. */
const nextBytes = (i: AgentInput, carry: (l: CarryLevel) => Carried, level = CARRY_LEVELS[0]!) =>
  jsonBytes({ ...i, continued: carry(level) });

describe('planHandover', () => {
  it('hands over what fits, shortened as every handover is, and the next input parses', () => {
    const { carry } = run('task', { results: 3, resultChars: 5_000 });
    const handover = planHandover(input('task'), carry, progressed);
    expect(handover.kind).toBe('continue');
    if (handover.kind !== 'continue') return;
    expect(handover.input.continued).toEqual(carry(CARRY_LEVELS[0]!));
    expect(() => AgentInput.parse(handover.input)).not.toThrow();
    expect(() => ContinuedState.parse(handover.input.continued)).not.toThrow();
  });

  it('the limit is continueAsNewAtBytes, and never more than MAX_CARRIED_BYTES', () => {
    expect(handoverLimit(input('t', { continueAsNewAtBytes: 100_000 }))).toBe(100_000);
    expect(handoverLimit(input('t'))).toBe(MAX_CARRIED_BYTES);
    expect(handoverLimit(input('t', { continueAsNewAtBytes: 50_000_000 }))).toBe(MAX_CARRIED_BYTES);
  });

  it('does not hand over as is at the limit: one byte over the carried size, as is; at it, shortened harder', () => {
    // A carried size of seven digits, like the default threshold's, so the threshold's own digits do not change the size.
    const task = 'x'.repeat(250_000);
    const { carry } = run(task, { results: 2, resultChars: 5_000, cacheChars: 300_000 });
    const bytes = nextBytes(input(task), carry);
    expect(String(bytes)).toHaveLength(7);
    const over = planHandover(input(task, { continueAsNewAtBytes: bytes + 1 }), carry, progressed);
    expect(over.kind === 'continue' && over.input.continued).toEqual(carry(CARRY_LEVELS[0]!));
    const at = planHandover(input(task, { continueAsNewAtBytes: bytes }), carry, progressed);
    expect(at.kind === 'continue' && at.input.continued).toEqual(carry(CARRY_LEVELS[1]!));
    const never = planHandover(input(task, { continueAsNewAtBytes: 700_000 }), carry, progressed);
    expect(never.kind === 'refused' && never.error).toContain('at or over the limit of 700000 bytes');
  });

  it('shortens harder before it refuses: drops the cache, then cuts every long text', () => {
    const { carry } = run('task', { results: 40, resultChars: 3_000, cacheChars: 200_000 });
    const sizes = CARRY_LEVELS.map((l) => nextBytes(input('task'), carry, l));
    expect(sizes[1]).toBeLessThan(sizes[0]! - 200_000);
    expect(sizes[2]).toBeLessThan(sizes[1]! - 200_000);

    // The threshold's own digits are part of the input: a margin of 10 bytes covers them.
    const second = planHandover(input('task', { continueAsNewAtBytes: sizes[0]! - 10 }), carry, progressed);
    expect(second.kind === 'continue' && second.input.continued).toEqual(carry(CARRY_LEVELS[1]!));
    expect(second.kind === 'continue' && second.input.continued?.readOnlyCache).toEqual([]);
    const third = planHandover(input('task', { continueAsNewAtBytes: sizes[1]! - 10 }), carry, progressed);
    expect(third.kind === 'continue' && third.input.continued).toEqual(carry(CARRY_LEVELS[2]!));
    const none = planHandover(input('task', { continueAsNewAtBytes: sizes[2]! - 10 }), carry, progressed);
    expect(none.kind).toBe('refused');
    // The sizes named are those measured with this threshold (two digits fewer than the default's).
    expect(none.kind === 'refused' && none.error).toContain(
      `${sizes[0]! - 2} → ${sizes[1]! - 2} → ${sizes[2]! - 2} bytes`,
    );
  });

  it('refuses what can never fit: a task at the start limit carried three times, over a low threshold', () => {
    const task = 'x'.repeat(MAX_TASK_BYTES);
    const { carry } = run(task, { results: 1 });
    const handover = planHandover(input(task, { continueAsNewAtBytes: 700_000 }), carry, progressed);
    expect(handover.kind).toBe('refused');
    expect(handover.kind === 'refused' && handover.error).toMatch(
      /^Continue-as-new refused: the state to carry is \d+ → \d+ → \d+ bytes .* limit of 700000 bytes/,
    );
    // With the default threshold the same task fits.
    expect(planHandover(input(task), carry, progressed).kind).toBe('continue');
  });

  it('refuses a handover before the first iteration of a Temporal run: its successor would do the same', () => {
    const { carry } = run('task', { results: 1 });
    const handover = planHandover(input('task'), carry, { iterationsThisRun: 0, historyBytes: 2_100_000 });
    expect(handover.kind).toBe('refused');
    expect(handover.kind === 'refused' && handover.error).toContain(
      'before its first iteration (history 2100000 bytes, continueAsNewAtBytes 2000000)',
    );
  });

  it('does not change the live state while it shortens the conversation on a copy', () => {
    const { state, carry } = run('task');
    for (let i = 0; i < 6; i++) {
      state.addMessage({ role: 'assistant', content: [{ type: 'text', text: `turn ${i}` }] });
      state.addMessage({
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: `u${i}`, content: 'o'.repeat(30_000), isError: false }],
      });
    }
    const before = JSON.stringify(state.messages);
    const shorter = carry(CARRY_LEVELS[2]!);
    expect(JSON.stringify(shorter.messages).length).toBeLessThan(before.length / 2);
    expect(JSON.stringify(state.messages)).toBe(before);
  });
});

describe('shortenChain', () => {
  const record = (callId: string, status: 'pending' | 'approved' | 'rejected') => ({
    callId,
    stepId: `s-${callId}`,
    toolName: 'write',
    arguments: { body: 'b'.repeat(5_000) },
    argumentsHash: 'h',
    reason: 'always',
    approverRoles: [],
    runId: 'run-0',
    requestedAt: 't',
    expiresAt: 't',
    status,
    ...(status === 'rejected' ? { note: 'n'.repeat(5_000) } : {}),
  });

  it('at the hardest level cuts decided approvals, never a pending one (its hash must match what is shown)', () => {
    const { chain } = run('task');
    const withApprovals = {
      ...chain.snapshot(),
      approvals: [record('a', 'approved'), record('r', 'rejected'), record('p', 'pending')],
    };
    expect(shortenChain(withApprovals, 'run-1', CARRY_LEVELS[1]!).approvals).toEqual(withApprovals.approvals);
    const [approved, rejected, pending] = shortenChain(withApprovals, 'run-1', CARRY_LEVELS[2]!).approvals!;
    expect(approved!.arguments).toEqual({
      shortened: expect.stringMatching(/…\[\d+ characters; shortened at continue-as-new, in full in run run-1\]$/),
    });
    expect(JSON.stringify(approved).length).toBeLessThan(1_000);
    expect(rejected!.note).toHaveLength(
      200 + '…[5000 characters; shortened at continue-as-new, in full in run run-1]'.length,
    );
    expect(pending).toEqual(withApprovals.approvals[2]);
  });
});

describe('fitResult', () => {
  function result(steps: number, chars: number): AgentResult {
    const { chain } = run('task', { results: steps, resultChars: chars });
    return {
      success: false,
      finalAnswer: '',
      terminationReason: 'error',
      error: 'why',
      chain: chain.snapshot(),
      usage: { inputTokens: 0, outputTokens: 0 },
      costUsd: 0,
      iterations: 1,
      executionTimeMs: 1,
    } as AgentResult;
  }

  it('leaves a result that fits alone', () => {
    const r = result(3, 5_000);
    expect(fitResult(r, 'run-1')).toBe(r);
  });

  it('shortens a result at the limit, not one byte under it', () => {
    const r = result(3, 5_000);
    const bytes = jsonBytes(r);
    expect(fitResult(r, 'run-1', bytes + 1)).toBe(r);
    const fitted = fitResult(r, 'run-1', bytes);
    expect(jsonBytes(fitted)).toBeLessThan(bytes);
    expect(JSON.stringify(fitted.chain)).toContain('shortened at continue-as-new, in full in run run-1');
  });

  it('keeps the newest steps when even the hardest shortening does not fit, and says so', () => {
    const r = result(3_000, 300);
    const fitted = fitResult(r, 'run-1', 200_000);
    expect(jsonBytes(fitted)).toBeLessThan(200_000);
    expect(fitted.chain.steps.length).toBeGreaterThan(0);
    expect(fitted.chain.steps.at(-1)).toEqual(
      expect.objectContaining({ stepNumber: r.chain.steps.at(-1)!.stepNumber }),
    );
    expect(fitted.error).toMatch(/keeps only its last \d+ of 9000 steps/);
  });
});
