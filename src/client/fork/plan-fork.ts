import {
  addUsage,
  addUsd,
  ForkStart,
  zeroUsage,
  type AgentInput,
  type AgentInputInit,
  type ApprovalPolicy,
  type ForkHazard,
  type ModelRequest,
  type Plan,
  type ReasoningStep,
  type ToolSpec,
} from '../../domain';
import { ForkError } from './fork-error';

/** What a fork changes; every field optional (a plain fork re-runs the same step). */
export interface ForkChange {
  /** The model for the fork, by name; the provider stays the original's unless given. */
  model?: { model: string; provider?: AgentInput['model']['provider'] };
  /** An instruction delivered before the fork's first model call. */
  steer?: string;
  /** The registered tools the fork may use, instead of the original's. */
  tools?: string[];
}

export interface ForkOriginal {
  workflowId: string;
  /** The input the original's first Temporal run started with. */
  input: AgentInput;
  /** Every step, in order, unfiltered. */
  steps: readonly ReasoningStep[];
  /** Its model calls, each with the step number of its `llm` tool_call step (a fork reads only their conversations). */
  modelCalls: ReadonlyArray<{ stepNumber: number; request: Pick<ModelRequest, 'messages'> }>;
  /** The tool specs the original's worker described; undefined when the history did not say. */
  tools: readonly ToolSpec[] | undefined;
  /** Set when the conversations were rebuilt from stored steps rather than read from history (an import): what they lack. */
  rebuilt?: string;
}

export interface PlannedFork {
  /** The fork's input, ready for `AgentClient.start`. */
  input: AgentInputInit;
  start: ForkStart;
}

/** The plan as it stood at a step: the last plan snapshot at or before it. */
export function planAsOf(steps: readonly ReasoningStep[], stepNumber: number): Plan | undefined {
  let plan: Plan | undefined;
  for (const step of steps)
    if (step.stepNumber <= stepNumber && step.type === 'thinking' && step.plan) plan = step.plan;
  return plan;
}

/** Tokens, cost and calls the steps through `stepNumber` record, sub-agents' spend included. */
export function ledgerAsOf(
  steps: readonly ReasoningStep[],
  stepNumber: number,
): Omit<ForkStart['ledger'], 'iterations'> {
  let usage = zeroUsage();
  let costUsd = 0;
  let modelCalls = 0;
  let toolCalls = 0;
  for (const step of steps) {
    if (step.stepNumber > stepNumber) break;
    if (step.usage) usage = addUsage(usage, step.usage);
    if (step.costUsd) costUsd = addUsd(costUsd, step.costUsd);
    if (step.type === 'tool_call') step.toolCall.toolType === 'llm' ? (modelCalls += 1) : (toolCalls += 1);
    const child = step.type === 'tool_result' ? step.toolResult.subAgent : undefined;
    if (child?.usage) usage = addUsage(usage, child.usage);
    if (child?.costUsd) costUsd = addUsd(costUsd, child.costUsd);
  }
  return { usage, costUsd, modelCalls, toolCalls };
}

const policyName = (policy: ApprovalPolicy | undefined): string =>
  policy === undefined ? 'never' : typeof policy === 'string' ? policy : 'rules';

/**
 * The calls after `keptThrough` that the fork may make again with effects: every tool call that
 * is not positively read-only (unknown tools and sub-agents included: fail closed). The run's
 * own control calls (finish, give up, a question) have none.
 */
export function forkHazards(original: ForkOriginal, keptThrough: number): ForkHazard[] {
  const { input } = original;
  const control = new Set([input.finishToolName, input.giveUpToolName, input.questionToolName]);
  const specs = new Map((original.tools ?? []).map((t) => [t.name, t]));
  const hazards: ForkHazard[] = [];
  for (const step of original.steps) {
    if (step.stepNumber <= keptThrough || step.type !== 'tool_call') continue;
    const { toolName, toolType } = step.toolCall;
    if (toolType === 'llm' || (toolType === 'custom' && control.has(toolName))) continue;
    const spec = specs.get(toolName);
    if (spec?.readOnly === true && toolType !== 'sub_agent') continue;
    const because =
      toolType === 'sub_agent'
        ? 'a sub-agent, which may do anything its tools allow'
        : spec
          ? 'not declared read-only'
          : "not in the original's described tools, so not known to be read-only";
    hazards.push({
      stepNumber: step.stepNumber,
      toolName,
      toolType,
      approval: policyName(input.approvals[toolName] ?? spec?.approval),
      because,
    });
  }
  return hazards;
}

/**
 * Plans a fork of `original` at `atStep`: it keeps every step up to the next model call after
 * that step (the fork makes that call again, with the change), starts from the conversation
 * that call was sent and the ledger and plan as they stood, and lists its hazards. Pure; throws
 * ForkError when the step does not exist or no model call follows it.
 */
export function planFork(
  original: ForkOriginal,
  atStep: number,
  change: ForkChange,
  caller: AgentInput['caller'],
): PlannedFork {
  const last = original.steps.at(-1)?.stepNumber ?? 0;
  if (!Number.isInteger(atStep) || atStep < 0 || atStep > last)
    throw new ForkError(`Run ${original.workflowId} has steps 1–${last}; there is no step ${atStep} to fork at.`);
  const next = original.modelCalls.find((c) => c.stepNumber > atStep);
  if (!next)
    throw new ForkError(
      `Run ${original.workflowId} made no model call after step ${atStep}, so a fork there has nothing to do again; fork at an earlier step.`,
    );
  const keptThroughStep = next.stepNumber - 1;
  const steps = original.steps.filter((s) => s.stepNumber <= keptThroughStep);
  const callStep = original.steps.find((s) => s.stepNumber === next.stepNumber);
  const plan = planAsOf(original.steps, keptThroughStep);
  const words = [
    ...(change.model ? [`model ${change.model.provider ? `${change.model.provider}/` : ''}${change.model.model}`] : []),
    ...(change.tools ? [`tools ${change.tools.join(', ') || '(none)'}`] : []),
    ...(change.steer
      ? [`the instruction "${change.steer.length > 200 ? `${change.steer.slice(0, 199)}…` : change.steer}"`]
      : []),
  ];
  const parsed = ForkStart.safeParse({
    from: { workflowId: original.workflowId, atStep, keptThroughStep },
    steps,
    messages: next.request.messages,
    ledger: { ...ledgerAsOf(original.steps, keptThroughStep), iterations: Math.max(0, (callStep?.iteration ?? 1) - 1) },
    ...(plan ? { plan } : {}),
    steering: change.steer ? [{ text: change.steer, ...(caller ? { by: caller.id } : {}) }] : [],
    hazards: forkHazards(original, keptThroughStep),
    change: words.join('; '),
    ...(original.rebuilt ? { rebuilt: original.rebuilt } : {}),
  });
  if (!parsed.success)
    throw new ForkError(
      `Cannot fork ${original.workflowId} at step ${atStep}: ${parsed.error.issues[0]?.message ?? 'its state does not read'}`,
    );
  // A fork is a root run of its own: never a continuation, never a sub-agent of the original's parent.
  const { continued: _continued, delegation: _delegation, fork: _fork, ...rest } = original.input;
  const input: AgentInputInit = {
    ...rest,
    ...(change.model
      ? {
          model: {
            ...rest.model,
            model: change.model.model,
            ...(change.model.provider ? { provider: change.model.provider } : {}),
          },
        }
      : {}),
    ...(change.tools ? { tools: change.tools } : {}),
    ...(caller ? { caller } : {}),
    fork: parsed.data,
  };
  return { input, start: parsed.data };
}
