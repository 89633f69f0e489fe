import { describe, expect, it } from 'vitest';
import { chainLength, type ApprovalRecord, type ReasoningChain, type SubAgentRun } from '../../../../src/domain';
import { ChainBuilder } from '../../../../src/workflows/core/chain/chain-builder';
import { CARRIED_LIMITS, chainTail } from '../../../../src/workflows/run/handover/chain-tail';
import { testChainBuilder } from '../../../helpers/test-chain-builder';

const full = { level: 'full' } as const;
const limits = { ...CARRIED_LIMITS, steps: 4, decidedApprovals: 1, subAgents: 1 };

/** A chain of `calls` text-protocol calls and their results (two steps each). */
function chainOf(calls: number): ReasoningChain {
  const chain = testChainBuilder();
  for (let i = 1; i <= calls; i++) {
    chain.toolCall({ toolType: 'external', toolName: 'lookup', arguments: { i }, correlationId: `react_${i}` }, full);
    chain.toolResult({ correlationId: `react_${i}`, success: true, result: i, durationMs: 1 }, full);
  }
  return chain.snapshot();
}

const approval = (callId: string, status: ApprovalRecord['status']) => ({ callId, status }) as ApprovalRecord;
const child = (workflowId: string, status: SubAgentRun['status']) => ({ workflowId, status }) as SubAgentRun;

describe('chainTail: what a handover carries of the chain', () => {
  it('carries a short chain as it is, and leaves nothing behind', () => {
    const chain = chainOf(2);
    expect(chainTail(chain, 'run-1', limits)).toEqual({ chain });
  });

  it('carries the latest steps, points to this run for the ones it leaves, and archives those once', () => {
    const { chain: tail, archive } = chainTail(chainOf(5), 'run-1', limits);
    expect(tail.steps.map((s) => s.stepNumber)).toEqual([7, 8, 9, 10]);
    expect(tail.earlier).toEqual({ runId: 'run-1', throughStep: 6, lastReactCall: 3 });
    expect(chainLength(tail)).toBe(10);
    expect(archive!.steps.map((s) => s.stepNumber)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(archive!.earlier).toBeUndefined();
  });

  it('keeps numbering where the carried tail left off, across handovers', () => {
    const once = chainTail(chainOf(5), 'run-1', limits).chain;
    let t = 0;
    const next = new ChainBuilder(
      { now: () => `2026-01-02T00:00:0${t++}.000Z`, newId: () => `n-${t}` },
      { restore: once },
    );
    expect(next.stepCount).toBe(10);
    const step = next.thinking('go on', full);
    expect(step.stepNumber).toBe(11);
    expect(next.position().stepNumber).toBe(11);
    // A second handover: the highest call left behind by either; only what it leaves, and where the steps before are.
    const { chain: twice, archive } = chainTail(next.snapshot(), 'run-2', { ...limits, steps: 2 });
    expect(twice.earlier).toEqual({ runId: 'run-2', throughStep: 9, lastReactCall: 5 });
    expect(twice.steps.map((s) => s.stepNumber)).toEqual([10, 11]);
    expect(archive!.steps.map((s) => s.stepNumber)).toEqual([7, 8, 9]);
    expect(archive!.earlier).toEqual(once.earlier);
    // One that leaves no call behind keeps the number the first one knew.
    const thinking = new ChainBuilder({ now: () => 't', newId: () => `m-${t++}` }, { restore: twice });
    thinking.thinking('a', full);
    thinking.thinking('b', full);
    expect(chainTail(thinking.snapshot(), 'run-3', { ...limits, steps: 2 }).chain.earlier).toEqual({
      runId: 'run-3',
      throughStep: 11,
      lastReactCall: 5,
    });
  });

  it('keeps every pending approval and running sub-agent, and only the latest decided ones', () => {
    const chain: ReasoningChain = {
      ...chainOf(1),
      approvals: [
        approval('a1', 'approved'),
        approval('a2', 'pending'),
        approval('a3', 'rejected'),
        approval('a4', 'approved'),
        approval('a5', 'pending'),
      ],
      subAgents: [child('c1', 'running'), child('c2', 'completed'), child('c3', 'failed'), child('c4', 'running')],
    };
    const tail = chainTail(chain, 'run-1', limits).chain;
    expect(tail.approvals!.map((a) => a.callId)).toEqual(['a2', 'a4', 'a5']);
    expect(tail.subAgents!.map((c) => c.workflowId)).toEqual(['c1', 'c3', 'c4']);
  });
});
