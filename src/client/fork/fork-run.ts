import { randomUUID } from 'node:crypto';
import { UnknownRunError } from '../errors/unknown-run-error';
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { AgentInput, ToolSpec, type AgentInputInit, type ReasoningChain, type ViewerRole } from '../../domain';
import { AgentDefinition } from '../../domain/agents/agent-definition';
import { ForkedFromAttribute } from '../../domain/run/search-attributes';
import { IMPORT_ID_PREFIX, isImportRunId } from '../../domain/store/import-run-id';
import { modelCallsOfRun } from '../history/model-call-history';
import { recordedActivities } from '../history/recorded-activities';
import { readRunInput } from '../runs/read-run-input';
import { runIdsOf } from '../runs/run-ids';
import { ForkError, forkOfGoneStepsRefused } from './fork-error';
import { planFork, type ForkChange, type ForkOriginal, type PlannedFork } from './plan-fork';

export interface ForkOptions extends ForkChange {
  /** The step to fork at: the fork keeps every step up to the next model call after it, and makes that call again. */
  atStep: number;
  /** Who starts the fork (their roles decide tool access); default the original's caller. Identity comes from your authentication. */
  caller?: AgentInput['caller'];
  /** Default `<original>-fork-<random>`. */
  workflowId?: string;
}

/** What forking needs of an AgentClient (its own methods; declared here so the client can delegate without a cycle). */
export interface ForkAgents<Handle> {
  client: Client;
  chain(workflowId: string, role: ViewerRole): Promise<ReasoningChain>;
  start(init: AgentInputInit, options: { workflowId?: string }): Promise<Handle>;
}

/** What `describeAgent` recorded for a run by name that found its agent. */
const DescribedAgent = z.object({ found: z.literal(true), definition: AgentDefinition, tools: ToolSpec.array() });

/** The tools a model call's result says it described (ModelCallResult.describedTools), when it has them. */
const describedByCall = (result: unknown): unknown =>
  typeof result === 'object' && result !== null ? (result as { describedTools?: unknown }).describedTools : undefined;

/** The original as a fork reads it: its first input, every step, its model calls rebuilt from history, its tool specs. */
async function readOriginal(agents: ForkAgents<unknown>, workflowId: string): Promise<ForkOriginal> {
  const runIds = await runIdsOf(agents.client, workflowId);
  if (runIds.length === 0) throw new UnknownRunError(workflowId);
  const first = AgentInput.safeParse(await readRunInput(agents.client, workflowId, runIds[0]));
  if (!first.success)
    throw new ForkError(
      `The input of ${workflowId} does not read as an agent run's: ${first.error.issues[0]?.message}`,
    );
  const chain: ReasoningChain = await agents.chain(workflowId, 'auditor');
  if (chain.unavailable) throw new ForkError(forkOfGoneStepsRefused(workflowId, chain.unavailable));
  const modelCalls = await modelCallsOfRun(agents.client, workflowId, runIds, chain.steps).catch((err: Error) => {
    throw new ForkError(`Cannot rebuild the conversation of ${workflowId}: ${err.message}`);
  });
  // The tools its worker described at the start: with its first model call, or before it (its agent
  // definition, for a run by name; a lookup, for text ReAct and planning). A continued run keeps that set.
  // Runs recorded before described them by a lookup, some as local activities.
  const recorded = await recordedActivities(
    agents.client,
    workflowId,
    runIds[0]!,
    ['describeTools', 'describeAgent', 'callModel'],
    { localActivities: true },
  );
  const described = recorded.find((a) => a.type !== 'callModel' || describedByCall(a.result) !== undefined);
  const agent = described?.type === 'describeAgent' ? DescribedAgent.safeParse(described.result) : undefined;
  const tools = agent?.success
    ? { success: true as const, data: agent.data.tools }
    : described?.type === 'describeTools'
      ? ToolSpec.array().safeParse(described.result)
      : described?.type === 'callModel'
        ? ToolSpec.array().safeParse(describedByCall(described.result))
        : undefined;
  return {
    workflowId,
    // A fork follows the definition the original resolved, sent inline: never whatever the workers hold now.
    input: agent?.success ? { ...first.data, definition: agent.data.definition } : first.data,
    steps: chain.steps,
    modelCalls,
    tools: tools?.success ? tools.data : undefined,
  };
}

/** What a fork of `workflowId` would start from, and its hazards; starts nothing. */
export async function planForkOf(
  agents: ForkAgents<unknown>,
  workflowId: string,
  options: ForkOptions,
): Promise<PlannedFork> {
  const original = await readOriginal(agents, workflowId);
  // The fork is the forker's run, in the original's tenant unless they name one.
  const tenant = original.input.caller?.tenant;
  const caller = options.caller ? { ...(tenant ? { tenant } : {}), ...options.caller } : original.input.caller;
  return planFork(original, options.atStep, options, caller);
}

/**
 * A fork's default workflow id: the original's, marked, with a random tail. An import's id is
 * reserved (`import:…`, never a run of Temporal), so a fork of one is `imported-<hash>-fork-…`:
 * still naming the import, never in its id space.
 */
export function forkWorkflowId(original: string): string {
  const base = isImportRunId(original) ? `imported-${original.slice(IMPORT_ID_PREFIX.length)}` : original;
  return `${base}-fork-${randomUUID().slice(0, 8)}`;
}

/** Plans and starts a fork: a new linked run (`forkedFrom`, and `ThoughtlineForkedFrom` for the original's list); the original is only read. */
export async function forkRun<Handle>(
  agents: ForkAgents<Handle>,
  workflowId: string,
  options: ForkOptions,
): Promise<{ handle: Handle; planned: PlannedFork }> {
  const planned = await planForkOf(agents, workflowId, options);
  const handle = await agents.start(planned.input, { workflowId: options.workflowId ?? forkWorkflowId(workflowId) });
  return { handle, planned };
}

/** The forks of a run, newest first (a visibility query; the original itself records nothing). */
export async function forksOf(
  agents: { client: Client },
  workflowId: string,
): Promise<Array<{ workflowId: string; startTime: Date; status: string }>> {
  const forks = new Map<string, { workflowId: string; startTime: Date; status: string }>();
  const query = `${ForkedFromAttribute.name} = "${workflowId.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  for await (const run of agents.client.workflow.list({ query })) {
    if (!forks.has(run.workflowId))
      forks.set(run.workflowId, { workflowId: run.workflowId, startTime: run.startTime, status: run.status.name });
  }
  return [...forks.values()].sort((a, b) => b.startTime.getTime() - a.startTime.getTime());
}
