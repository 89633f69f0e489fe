import {
  CHAIN_SCHEMA_VERSION,
  type AgentInput,
  type ForkStart,
  type ReasoningChain,
  type RunStateData,
} from '../../domain';
import { freshRunStateData } from '../core/state/run-state';

// A fork is a new agent run that starts where another stood: these build its chain and state
// from `AgentInput.fork`. Pure and deterministic; the original run is never read or touched.

/** The fork's chain: its own id, task and start, the original's steps up to the fork point, the plan as it stood. */
export function forkChain(fork: ForkStart, workflowId: string, input: AgentInput, now: string): ReasoningChain {
  return {
    schemaVersion: CHAIN_SCHEMA_VERSION,
    chainId: workflowId,
    agentName: input.agentName,
    task: input.task,
    startedAt: now,
    status: 'thinking',
    steps: fork.steps,
    ...(fork.plan ? { plan: fork.plan } : {}),
    forkedFrom: fork.from,
  };
}

/** The fork's run state: the conversation its next model call is sent, and the ledger as it stood; its clock starts now. */
export function forkState(fork: ForkStart, input: AgentInput, nowMs: number): RunStateData {
  const { usage, costUsd, iterations, modelCalls, toolCalls } = fork.ledger;
  return {
    ...freshRunStateData(input.model.model, fork.messages, nowMs),
    usage,
    costUsd,
    iteration: iterations,
    modelCalls,
    toolCalls,
  };
}

/** The fork's first step of its own: where it comes from, what it changes, and what it may do again. */
export function forkNote(fork: ForkStart): string {
  const { from } = fork;
  const kept =
    from.keptThroughStep === from.atStep
      ? `step ${from.atStep}`
      : `step ${from.atStep} (kept through step ${from.keptThroughStep}, up to the next model call)`;
  const hazards = fork.hazards.length
    ? ` It may repeat ${fork.hazards.length} call(s) with side effects that the original made after that point: ${fork.hazards.map((h) => `${h.toolName} (step ${h.stepNumber}, approval: ${h.approval})`).join(', ')}; approvals given to the original do not carry over.`
    : '';
  const rebuilt = fork.rebuilt ? ` ${fork.rebuilt}` : '';
  return `Forked from run ${from.workflowId} at ${kept}${fork.change ? `, with ${fork.change}` : ''}.${rebuilt}${hazards}`;
}
