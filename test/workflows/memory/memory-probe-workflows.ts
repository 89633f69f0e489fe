// A test-only workflow bundle: the agent's memory workflow, and a probe that does what a run with
// `planning.memory` does at its start and end (recallMemory, keepLearnings) on a bare RunContext,
// so the memory can be tested before the planner calls it.
import { condition, uuid4, workflowInfo } from '@temporalio/workflow';
import type { MemoryEntry, MemoryKey } from '../../../src/domain/planning/agent-memory';
import { activities, memoryCallOptions } from '../../../src/workflows/activity-proxies';
import type { AgentInput, Learning, ReasoningStep } from '../../../src/domain';
import { ChainBuilder } from '../../../src/workflows/core/chain/chain-builder';
import type { RunContext } from '../../../src/workflows/core/state/run-context';
import { keepLearnings, recallMemory } from '../../../src/workflows/memory/run-memory';

export { agentMemoryWorkflow } from '../../../src/workflows/memory/agent-memory-workflow';

export interface MemoryProbeResult {
  recalled: Learning[];
  steps: ReasoningStep[];
}

/** Recalls the memory into a fresh chain, then keeps what was recalled plus `learnt` (only `learnt` is the run's own). */
export async function memoryProbeWorkflow(input: AgentInput, learnt: Learning[]): Promise<MemoryProbeResult> {
  const { workflowId } = workflowInfo();
  const chain = new ChainBuilder(
    { now: () => new Date().toISOString(), newId: uuid4 },
    { chainId: workflowId, agentName: input.agentName, task: input.task },
  );
  const ctx = { input, workflowId, chain } as unknown as RunContext;
  const recalled = await recallMemory(ctx);
  await keepLearnings(ctx, [...recalled, ...learnt]);
  return { recalled, steps: [...chain.steps] };
}

/** Holds a workflow id and answers no query: a memory id taken by something else. */
export async function squatterWorkflow(): Promise<void> {
  await condition(() => false);
}

/** Reads a memory as workflow code from before ranking did: the key alone. */
export async function oldMemoryReadWorkflow(key: MemoryKey): Promise<MemoryEntry[]> {
  const read: unknown = await activities.readAgentMemory.executeWithOptions(memoryCallOptions('read agent memory'), [
    key,
  ]);
  return read as MemoryEntry[];
}
