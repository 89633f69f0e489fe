import { describe, expect, it } from 'vitest';
import type { ApprovalRecord, SubAgentRun, Visibility } from '../../src/domain';
import { RunEvent } from '../../src/domain/run/run-event';
import { ChainBuilder } from '../../src/workflows/core/chain/chain-builder';
import type { ChainChange, ChainPosition } from '../../src/workflows/core/chain/chain-observer';
import { createRunEventObserver } from '../../src/workflows/core/chain/run-event-observer';

function builder(observer: ConstructorParameters<typeof ChainBuilder>[2]): ChainBuilder {
  let t = 0;
  let id = 0;
  return new ChainBuilder(
    { now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, t++)).toISOString(), newId: () => `id-${++id}` },
    { chainId: 'wf-1', agentName: 'a', task: 'task' },
    observer,
  );
}

const SHOWN: Visibility = { level: 'full' };

const approval = (status: ApprovalRecord['status']): ApprovalRecord => ({
  callId: 'call-1',
  stepId: 'id-3',
  toolName: 'pay',
  arguments: { amount: 5 },
  argumentsHash: 'h',
  reason: 'always',
  approverRoles: ['finance'],
  runId: 'r-1',
  requestedAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-02T00:00:00.000Z',
  status,
});

const child: SubAgentRun = {
  callId: 'call-2',
  agentName: 'helper',
  workflowId: 'wf-1/helper',
  status: 'running',
  budget: { maxIterations: 3 },
};

/** A run's observer whose events wait until the test flushes them, as at the end of a workflow task. */
function observed() {
  const events: RunEvent[] = [];
  const batches: number[] = [];
  const deferred: Array<() => void> = [];
  const observer = createRunEventObserver(
    'wf-1',
    (batch) => {
      batches.push(batch.length);
      events.push(...batch.map((e) => RunEvent.parse(e)));
    },
    (flush) => deferred.push(flush),
  );
  const flush = () => deferred.splice(0).forEach((f) => f());
  return { events, batches, observer, flush };
}

describe('ChainBuilder observer', () => {
  it('is told of each step, status change, approval and sub-agent put, with the position after it', () => {
    const seen: Array<[ChainChange['kind'], ChainPosition]> = [];
    const chain = builder((change, at) => seen.push([change.kind, at]));
    chain.thinking('plan', SHOWN);
    chain.setStatus('tool_calling');
    chain.setStatus('tool_calling');
    chain.putApproval(approval('pending'));
    chain.putApproval(approval('approved'));
    chain.putSubAgent(child);
    chain.setStatus('completed');
    expect(seen).toEqual([
      ['step', { status: 'thinking', stepNumber: 1 }],
      ['status', { status: 'tool_calling', stepNumber: 1 }],
      ['approval', { status: 'tool_calling', stepNumber: 1 }],
      ['approval', { status: 'tool_calling', stepNumber: 1 }],
      ['sub_agent', { status: 'tool_calling', stepNumber: 1 }],
      ['status', { status: 'completed', stepNumber: 1 }],
    ]);
  });

  it('a restored chain tells nothing of the steps it was given', () => {
    const seen: ChainChange[] = [];
    const first = builder(undefined);
    first.thinking('a', SHOWN);
    const restored = new ChainBuilder({ now: () => 't', newId: () => 'x' }, { restore: first.snapshot() }, (c) =>
      seen.push(c),
    );
    restored.thinking('b', SHOWN);
    expect(seen.map((c) => (c.kind === 'step' ? c.step.stepNumber : c.kind))).toEqual([2]);
  });
});

describe('createRunEventObserver', () => {
  it('publishes schema-valid events in chain order, each step once with its own number', () => {
    const { events, observer, flush } = observed();
    const chain = builder(observer.observe);
    chain.thinking('one', SHOWN);
    chain.thinking('two', SHOWN);
    chain.setStatus('tool_calling');
    chain.putApproval(approval('pending'));
    chain.thinking('three', SHOWN);
    flush();
    chain.putSubAgent(child);
    chain.setStatus('completed');
    observer.end('completed', chain.position());
    flush();
    expect(events.map((e) => [e.type, e.stepNumber, e.chainStatus])).toEqual([
      ['step', 1, 'thinking'],
      ['step', 2, 'thinking'],
      ['status', 2, 'tool_calling'],
      ['approval', 2, 'tool_calling'],
      ['step', 3, 'tool_calling'],
      ['sub_agent', 3, 'tool_calling'],
      ['status', 3, 'completed'],
      ['end', 3, 'completed'],
    ]);
    expect(events.every((e) => e.runId === 'wf-1')).toBe(true);
    expect(events.filter((e) => e.type === 'step').map((e) => (e.type === 'step' ? e.step.stepNumber : 0))).toEqual([
      1, 2, 3,
    ]);
  });

  it('a parallel tag added before the steps leave travels with them, and is not sent twice after', () => {
    const { events, observer, flush } = observed();
    const chain = builder(observer.observe);
    const a = chain.toolCall({ toolType: 'external', toolName: 'x', arguments: {}, correlationId: 'c1' }, SHOWN);
    const b = chain.toolCall({ toolType: 'external', toolName: 'y', arguments: {}, correlationId: 'c2' }, SHOWN);
    chain.tagParallel([a, b]);
    flush();
    chain.tagParallel([a, b]);
    flush();
    const steps = events.flatMap((e) => (e.type === 'step' ? [e.step] : []));
    expect(steps.map((s) => [s.stepNumber, s.parallel])).toEqual([
      [1, { group: 1, index: 1, size: 2 }],
      [2, { group: 1, index: 2, size: 2 }],
    ]);
  });

  it("passes on a task's events in one call when the task settles, and nothing before", () => {
    const { events, batches, observer, flush } = observed();
    const chain = builder(observer.observe);
    chain.thinking('one', SHOWN);
    chain.setStatus('tool_calling');
    chain.putApproval(approval('pending'));
    expect(events).toEqual([]);
    flush();
    flush();
    chain.putSubAgent(child);
    flush();
    expect(batches).toEqual([3, 1]);
    expect(events.map((e) => e.type)).toEqual(['step', 'status', 'approval', 'sub_agent']);
  });

  it('loses nothing when the deferred flush runs at once (as a condition the SDK tries eagerly)', () => {
    const events: RunEvent[] = [];
    const observer = createRunEventObserver(
      'wf-1',
      (batch) => events.push(...batch),
      (flush) => flush(),
    );
    const chain = builder(observer.observe);
    chain.thinking('one', SHOWN);
    chain.setStatus('tool_calling');
    chain.thinking('two', SHOWN);
    expect(events.map((e) => [e.type, e.stepNumber])).toEqual([
      ['step', 1],
      ['status', 1],
      ['step', 2],
    ]);
  });

  it('end passes on the steps still waiting, then ends', () => {
    const { events, observer } = observed();
    const chain = builder(observer.observe);
    chain.thinking('last words', SHOWN);
    observer.end('cancelled', chain.position());
    expect(events.map((e) => e.type)).toEqual(['step', 'end']);
    expect(events[1]).toMatchObject({ type: 'end', outcome: 'cancelled', stepNumber: 1 });
  });
});
