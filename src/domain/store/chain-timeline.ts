import { z } from 'zod';
import type { ReasoningChain, ReasoningStep } from '../chain/chain';
import type { ApprovalRecord } from '../approval/approval';

/**
 * One bar of a run's timeline (waterfall): a model call, a tool call, a wait for a person's
 * approval, or a sub-agent, from its start to its end (still open: `endMs` absent). Times are
 * milliseconds from the chain's start. Calls that overlap get different `lane`s, so parallel calls
 * sit side by side; lane 0 is the first free one.
 */
export const TimelineBar = z.object({
  kind: z.enum(['model', 'tool', 'approval', 'sub_agent']),
  label: z.string(),
  /** The step that opened it (the call), and the one that closed it (the result), if any. */
  stepNumber: z.number().int().nonnegative(),
  endStepNumber: z.number().int().nonnegative().optional(),
  startMs: z.number().nonnegative(),
  endMs: z.number().nonnegative().optional(),
  lane: z.number().int().nonnegative(),
  success: z.boolean().optional(),
  /** A sub-agent's run, to open its own timeline. */
  runId: z.string().optional(),
});
export type TimelineBar = z.infer<typeof TimelineBar>;

export const ChainTimeline = z.object({
  runId: z.string(),
  startedAt: z.string(),
  /** The span the bars cover, ms from `startedAt`. */
  totalMs: z.number().nonnegative(),
  lanes: z.number().int().nonnegative(),
  bars: z.array(TimelineBar),
  /** Bars left out past the limit (the earliest are kept). */
  omitted: z.number().int().nonnegative(),
});
export type ChainTimeline = z.infer<typeof ChainTimeline>;

/** Most bars one timeline carries. */
export const MAX_TIMELINE_BARS = 2_000;

type ToolCallStep = Extract<ReasoningStep, { type: 'tool_call' }>;
type ToolResultStep = Extract<ReasoningStep, { type: 'tool_result' }>;
type UnlanedBar = Omit<TimelineBar, 'lane'>;

/**
 * The timeline of a chain already in the reader's view (so a hidden step makes no bar). Pure.
 * A call's bar runs from its call step to its result step (matched by correlation id); when the
 * result's `durationMs` says the work began later (the call waited, e.g. for approval, which has
 * its own bar), the bar starts then. A result whose call the view does not show starts at its
 * timestamp minus its duration. Unparseable timestamps count as the chain's start.
 */
export function chainTimeline(chain: ReasoningChain): ChainTimeline {
  const origin = parseMs(chain.startedAt) ?? parseMs(chain.steps[0]?.timestamp) ?? 0;
  const at = (iso: string | undefined): number => Math.max(0, (parseMs(iso) ?? origin) - origin);
  const bars = [...callBars(chain.steps, at), ...approvalBars(chain, at)];
  bars.sort((a, b) => a.startMs - b.startMs || a.stepNumber - b.stepNumber);
  const kept = bars.slice(0, MAX_TIMELINE_BARS);
  const laned = assignLanes(kept);
  const lastStep = chain.steps[chain.steps.length - 1];
  const ends = laned.map((bar) => bar.endMs ?? bar.startMs);
  const totalMs = Math.max(0, at(lastStep?.timestamp), at(chain.completedAt), ...ends);
  return {
    runId: chain.chainId,
    startedAt: chain.startedAt,
    totalMs,
    lanes: laned.reduce((most, bar) => Math.max(most, bar.lane + 1), 0),
    bars: laned,
    omitted: bars.length - kept.length,
  };
}

function callBars(steps: readonly ReasoningStep[], at: (iso: string | undefined) => number): UnlanedBar[] {
  const results = new Map<string, ToolResultStep>();
  for (const step of steps) if (step.type === 'tool_result') results.set(step.toolResult.correlationId, step);
  const called = new Set<string>();
  const bars: UnlanedBar[] = [];
  for (const step of steps) {
    if (step.type !== 'tool_call') continue;
    called.add(step.toolCall.correlationId);
    bars.push(barOfCall(step, results.get(step.toolCall.correlationId), at));
  }
  for (const [id, result] of results) if (!called.has(id)) bars.push(barOfOrphanResult(result, at));
  return bars;
}

function barOfCall(call: ToolCallStep, result: ToolResultStep | undefined, at: (iso?: string) => number): UnlanedBar {
  const { toolType, toolName, delegatedTo } = call.toolCall;
  const kind = toolType === 'llm' ? 'model' : toolType === 'sub_agent' ? 'sub_agent' : 'tool';
  const calledMs = at(call.timestamp);
  const bar: UnlanedBar = {
    kind,
    label:
      kind === 'sub_agent' && delegatedTo
        ? delegatedTo.agentName
        : kind === 'model' && call.model
          ? call.model
          : toolName,
    stepNumber: call.stepNumber,
    startMs: calledMs,
  };
  const runId = delegatedTo?.workflowId ?? result?.toolResult.subAgent?.workflowId;
  if (kind === 'sub_agent' && runId) bar.runId = runId;
  if (!result) return bar;
  const endMs = Math.max(calledMs, at(result.timestamp));
  bar.startMs = Math.min(endMs, Math.max(calledMs, endMs - result.toolResult.durationMs));
  bar.endMs = endMs;
  bar.endStepNumber = result.stepNumber;
  bar.success = result.toolResult.success;
  return bar;
}

function barOfOrphanResult(result: ToolResultStep, at: (iso?: string) => number): UnlanedBar {
  const subAgent = result.toolResult.subAgent;
  const endMs = at(result.timestamp);
  const bar: UnlanedBar = {
    kind: subAgent ? 'sub_agent' : result.model ? 'model' : 'tool',
    label: subAgent?.agentName ?? result.model ?? `result ${result.toolResult.correlationId}`,
    stepNumber: result.stepNumber,
    endStepNumber: result.stepNumber,
    startMs: Math.max(0, endMs - result.toolResult.durationMs),
    endMs,
    success: result.toolResult.success,
  };
  if (subAgent) bar.runId = subAgent.workflowId;
  return bar;
}

function approvalBars(chain: ReasoningChain, at: (iso: string | undefined) => number): UnlanedBar[] {
  const stepNumbers = new Map(chain.steps.map((step) => [step.stepId, step.stepNumber]));
  return (chain.approvals ?? []).map((record: ApprovalRecord) => {
    const bar: UnlanedBar = {
      kind: 'approval',
      label: `approve ${record.toolName}`,
      stepNumber: stepNumbers.get(record.stepId) ?? 0,
      startMs: at(record.requestedAt),
    };
    if (record.decidedAt !== undefined) bar.endMs = Math.max(bar.startMs, at(record.decidedAt));
    if (record.status !== 'pending') bar.success = record.status === 'approved';
    return bar;
  });
}

/**
 * Greedy interval colouring over bars sorted by start: each takes the lowest lane whose last bar
 * ended by its start. An open bar holds its lane to the end; two bars starting in the same
 * millisecond never share a lane (parallel calls of one turn carry the same workflow time).
 */
function assignLanes(sorted: readonly UnlanedBar[]): TimelineBar[] {
  const lanes: { start: number; end: number }[] = [];
  return sorted.map((bar) => {
    let lane = lanes.findIndex((held) => held.end <= bar.startMs && held.start < bar.startMs);
    if (lane < 0) lane = lanes.push({ start: 0, end: 0 }) - 1;
    lanes[lane] = { start: bar.startMs, end: bar.endMs ?? Number.POSITIVE_INFINITY };
    return { ...bar, lane };
  });
}

function parseMs(iso: string | undefined): number | undefined {
  if (iso === undefined) return undefined;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : undefined;
}
