import { z } from 'zod';
import type { ReasoningChain, ReasoningStep } from '../chain/chain';
import { modelTimes, ModelTimes } from '../chain/model-times';

/** A chain past this many steps gets a warning: read it through filters, search and the summary. */
export const LONG_CHAIN_STEPS = 200;

/**
 * What a chain comes to, for a person who will not read every step: counts by type, each tool
 * with its calls and failures, cost, tokens and time, and the main decisions (plan, task choices,
 * fallbacks, goal checks, approvals, the answer), each naming its step.
 */
export const ChainSummary = z.object({
  runId: z.string(),
  agentName: z.string(),
  task: z.string(),
  status: z.string(),
  steps: z.number().int().nonnegative(),
  byType: z.object({
    thinking: z.number().int().nonnegative(),
    tool_call: z.number().int().nonnegative(),
    tool_result: z.number().int().nonnegative(),
    synthesis: z.number().int().nonnegative(),
  }),
  tools: z.array(
    z.object({
      name: z.string(),
      calls: z.number().int().nonnegative(),
      failures: z.number().int().nonnegative(),
      totalMs: z.number().nonnegative(),
    }),
  ),
  modelCalls: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
  /** From the first step's timestamp to the last's. */
  durationMs: z.number().nonnegative(),
  /** Seed 003's planning time and reasoning time per iteration, from the model calls' own durations. */
  time: ModelTimes,
  decisions: z
    .array(
      z.object({
        stepNumber: z.number().int().nonnegative(),
        kind: z.enum(['plan', 'task_choice', 'fallback', 'goal_check', 'approval', 'sub_agent', 'answer']),
        text: z.string(),
      }),
    )
    .max(50),
  /** Set past LONG_CHAIN_STEPS: say so, and point at filters and search. */
  longChain: z.object({ steps: z.number().int(), advice: z.string() }).optional(),
});
export type ChainSummary = z.infer<typeof ChainSummary>;

type Decision = ChainSummary['decisions'][number];
type ToolRow = ChainSummary['tools'][number];

const DECISION_TEXT = 200;
const MAX_DECISIONS = 50;

const PURPOSE_KINDS: Readonly<Partial<Record<string, Decision['kind']>>> = {
  plan: 'plan',
  task_choice: 'task_choice',
  fallback: 'fallback',
  goal_check: 'goal_check',
};

const cut = (text: string): string => (text.length > DECISION_TEXT ? `${text.slice(0, DECISION_TEXT - 1)}…` : text);

/** The decision a step records, if it is one the summary names. A person's approval is a thinking step: read first. */
function decisionOf(step: ReasoningStep): Decision | undefined {
  const at = step.stepNumber;
  if (step.fromPerson?.kind === 'approval')
    return {
      stepNumber: at,
      kind: 'approval',
      // "Approved by alice (ops): delete_file (call c1)": who decided what, as the step says it.
      text: cut(step.type === 'thinking' ? step.thought : `decided by ${step.fromPerson.by}`),
    };
  if (step.type === 'thinking') {
    const kind = step.purpose !== undefined ? PURPOSE_KINDS[step.purpose] : undefined;
    return kind ? { stepNumber: at, kind, text: cut(step.thought) } : undefined;
  }
  if (step.type === 'synthesis') return { stepNumber: at, kind: 'answer', text: cut(step.synthesis.conclusion) };
  if (step.type === 'tool_call' && step.toolCall.toolType === 'sub_agent')
    return { stepNumber: at, kind: 'sub_agent', text: cut(`delegated with ${step.toolCall.toolName}`) };
  return undefined;
}

/** The tool's row, made on first use. */
function rowOf(tools: Map<string, ToolRow>, name: string): ToolRow {
  const row = tools.get(name) ?? { name, calls: 0, failures: 0, totalMs: 0 };
  tools.set(name, row);
  return row;
}

/**
 * The summary of a chain already in the reader's view (so it shows only what that view shows).
 * Pure. Decisions are cut to their first 200 characters; at most 50 are kept, the latest last.
 */
export function summariseChain(chain: ReasoningChain): ChainSummary {
  const byType = { thinking: 0, tool_call: 0, tool_result: 0, synthesis: 0 };
  const tools = new Map<string, ToolRow>();
  const callTool = new Map<string, string>();
  let modelCalls = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let costUsd = 0;
  const decisions: Decision[] = [];
  // A model call's row is named after the model that answered it (its reply's `model`), which may
  // not be the one asked (a fallback, the offline model); a call with no reply keeps the one asked.
  const llmCalls = new Map<string, string>();
  for (const step of chain.steps) {
    byType[step.type] += 1;
    inputTokens += step.usage?.inputTokens ?? 0;
    outputTokens += step.usage?.outputTokens ?? 0;
    costUsd += step.costUsd ?? 0;
    if (step.type === 'tool_call' && step.toolCall.toolType === 'llm') {
      modelCalls += 1;
      llmCalls.set(step.toolCall.correlationId, step.toolCall.toolName);
    } else if (step.type === 'tool_call') {
      callTool.set(step.toolCall.correlationId, step.toolCall.toolName);
      rowOf(tools, step.toolCall.toolName).calls += 1;
    }
    if (step.type === 'tool_result') {
      const id = step.toolResult.correlationId;
      const asked = llmCalls.get(id);
      if (asked !== undefined) {
        llmCalls.delete(id);
        callTool.set(id, step.toolResult.success ? (step.model ?? asked) : asked);
        rowOf(tools, callTool.get(id)!).calls += 1;
      }
      const row = tools.get(callTool.get(id) ?? '');
      if (row) {
        row.totalMs += step.toolResult.durationMs;
        if (!step.toolResult.success) row.failures += 1;
      }
    }
    const decision = decisionOf(step);
    if (decision) decisions.push(decision);
  }
  // Model calls still waiting for their reply, under the model asked.
  for (const asked of llmCalls.values()) rowOf(tools, asked).calls += 1;
  const first = chain.steps[0];
  const last = chain.steps[chain.steps.length - 1];
  const span = first && last ? Date.parse(last.timestamp) - Date.parse(first.timestamp) : 0;
  const steps = chain.steps.length;
  return {
    runId: chain.chainId,
    agentName: chain.agentName,
    task: chain.task,
    status: chain.status,
    steps,
    byType,
    tools: [...tools.values()].sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name)),
    modelCalls,
    inputTokens,
    outputTokens,
    costUsd,
    durationMs: Number.isFinite(span) && span > 0 ? span : 0,
    time: modelTimes(chain.steps),
    decisions: decisions.slice(-MAX_DECISIONS),
    ...(steps > LONG_CHAIN_STEPS
      ? {
          longChain: {
            steps,
            advice: `This chain has ${steps} steps: read it through filters (type, tool, text, time), search and this summary.`,
          },
        }
      : {}),
  };
}
