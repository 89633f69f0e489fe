import { describe, expect, it } from 'vitest';
import type { ReasoningChain, ReasoningStep } from '../../src/domain/chain/chain';
import type { ApprovalRecord } from '../../src/domain/approval/approval';
import { ChainTimeline, MAX_TIMELINE_BARS, chainTimeline } from '../../src/domain/store';

const T0 = Date.parse('2026-11-26T10:00:00.000Z');
const iso = (ms: number): string => new Date(T0 + ms).toISOString();

function base(stepNumber: number, ms: number) {
  return {
    stepId: `s${stepNumber}`,
    stepNumber,
    timestamp: iso(ms),
    iteration: 1,
    visibility: { level: 'full' as const },
  };
}
function call(stepNumber: number, ms: number, id: string, toolName: string, extra: object = {}): ReasoningStep {
  return {
    ...base(stepNumber, ms),
    type: 'tool_call',
    toolCall: { toolType: 'external', toolName, arguments: {}, correlationId: id, ...extra },
  };
}
function result(stepNumber: number, ms: number, id: string, durationMs: number, success = true): ReasoningStep {
  return {
    ...base(stepNumber, ms),
    type: 'tool_result',
    toolResult: { correlationId: id, success, result: 'ok', durationMs },
  };
}
function chainOf(steps: ReasoningStep[], approvals?: ApprovalRecord[]): ReasoningChain {
  return {
    schemaVersion: 1,
    chainId: 'run-1',
    agentName: 'a',
    task: 't',
    startedAt: iso(0),
    status: 'completed',
    steps,
    ...(approvals ? { approvals } : {}),
  };
}
function approval(stepId: string, requestedMs: number, decidedMs?: number): ApprovalRecord {
  return {
    callId: 'c-approve',
    stepId,
    toolName: 'files_write',
    arguments: {},
    argumentsHash: 'h',
    reason: 'always',
    approverRoles: [],
    runId: 'r',
    requestedAt: iso(requestedMs),
    expiresAt: iso(requestedMs + 3_600_000),
    status: decidedMs === undefined ? 'pending' : 'approved',
    ...(decidedMs === undefined ? {} : { decidedAt: iso(decidedMs) }),
  };
}

describe('chainTimeline', () => {
  it('puts a model call and two parallel tool calls on bars, the parallel ones in different lanes', () => {
    const timeline = chainTimeline(
      chainOf([
        call(1, 0, 'm1', 'claude', { toolType: 'llm' }),
        result(2, 1_200, 'm1', 1_200),
        call(3, 1_200, 'p1', 'search'),
        call(4, 1_200, 'p2', 'fetch'),
        result(5, 1_700, 'p1', 500),
        result(6, 2_100, 'p2', 900, false),
      ]),
    );
    expect(ChainTimeline.parse(timeline)).toEqual(timeline);
    const [model, search, fetch] = timeline.bars;
    expect(model).toMatchObject({ kind: 'model', stepNumber: 1, endStepNumber: 2, startMs: 0, endMs: 1_200, lane: 0 });
    expect(search).toMatchObject({ kind: 'tool', label: 'search', startMs: 1_200, endMs: 1_700, success: true });
    expect(fetch).toMatchObject({ kind: 'tool', label: 'fetch', startMs: 1_200, endMs: 2_100, success: false });
    expect(search?.lane).not.toBe(fetch?.lane);
    expect(timeline).toMatchObject({ runId: 'run-1', totalMs: 2_100, lanes: 2, omitted: 0 });
  });

  it('leaves a call with no result open, holding its lane', () => {
    const timeline = chainTimeline(
      chainOf([call(1, 0, 'a', 'slow'), call(2, 500, 'b', 'quick'), result(3, 800, 'b', 300)]),
    );
    expect(timeline.bars[0]).toMatchObject({ label: 'slow', startMs: 0, lane: 0 });
    expect(timeline.bars[0]?.endMs).toBeUndefined();
    expect(timeline.bars[1]).toMatchObject({ label: 'quick', lane: 1, endMs: 800 });
  });

  it('starts a result whose call is not in the view at its timestamp minus its duration', () => {
    const timeline = chainTimeline(chainOf([result(4, 5_000, 'hidden', 2_000)]));
    expect(timeline.bars).toEqual([
      expect.objectContaining({ kind: 'tool', startMs: 3_000, endMs: 5_000, stepNumber: 4, lane: 0 }),
    ]);
  });

  it('draws approval waits, decided and open, and starts the tool when it ran after the wait', () => {
    const timeline = chainTimeline(
      chainOf(
        [call(1, 0, 'w', 'files_write'), result(2, 10_400, 'w', 400), call(3, 11_000, 'x', 'files_write')],
        [approval('s1', 0, 10_000), approval('s3', 11_000)],
      ),
    );
    const waits = timeline.bars.filter((bar) => bar.kind === 'approval');
    expect(waits).toEqual([
      expect.objectContaining({
        label: 'approve files_write',
        stepNumber: 1,
        startMs: 0,
        endMs: 10_000,
        success: true,
      }),
      expect.objectContaining({ stepNumber: 3, startMs: 11_000 }),
    ]);
    expect(waits[1]?.endMs).toBeUndefined();
    expect(timeline.bars.find((bar) => bar.stepNumber === 1 && bar.kind === 'tool')).toMatchObject({
      startMs: 10_000,
      endMs: 10_400,
    });
  });

  it('draws a sub-agent with the run id to open its own timeline', () => {
    const delegatedTo = { agentName: 'researcher', workflowId: 'run-1--sub-3' };
    const timeline = chainTimeline(
      chainOf([call(3, 100, 's', 'delegate', { toolType: 'sub_agent', delegatedTo }), result(4, 9_100, 's', 9_000)]),
    );
    expect(timeline.bars).toEqual([
      expect.objectContaining({
        kind: 'sub_agent',
        label: 'researcher',
        runId: 'run-1--sub-3',
        startMs: 100,
        endMs: 9_100,
      }),
    ]);
  });

  it(`keeps the earliest ${MAX_TIMELINE_BARS} bars and counts the rest`, () => {
    const steps: ReasoningStep[] = [];
    for (let i = 0; i < MAX_TIMELINE_BARS + 5; i += 1) {
      steps.push(call(2 * i + 1, i * 10, `c${i}`, 'tick'), result(2 * i + 2, i * 10 + 5, `c${i}`, 5));
    }
    const timeline = chainTimeline(chainOf(steps));
    expect(timeline.bars).toHaveLength(MAX_TIMELINE_BARS);
    expect(timeline.omitted).toBe(5);
    expect(timeline.bars.at(-1)?.stepNumber).toBe(2 * (MAX_TIMELINE_BARS - 1) + 1);
    expect(timeline.lanes).toBe(1);

    const exact = chainTimeline(chainOf(steps.slice(0, 2 * MAX_TIMELINE_BARS)));
    expect(exact).toMatchObject({ omitted: 0, lanes: 1 });
    expect(exact.bars).toHaveLength(MAX_TIMELINE_BARS);
  });
});
