import { ApplicationFailure } from '@temporalio/workflow';
import { FailureType, MAX_RUN_GUARDRAILS, type AgentInput, type ToolSpec } from '../../domain';
import { policyProblem } from '../../domain/approval/rule-pattern';
import { activities } from '../activity-proxies';
import type { RunContext } from '../core/state/run-context';
import { splitToolNames } from '../delegation/sub-agent-tools';
import type { RunOutcome } from '../loop/react-loop';
import { RunTools } from '../tools/run-tools';
import { resolveAgent, type ResolvedAgent } from './resolve-agent';

/**
 * What a run checks before its first iteration, in this order: its approval rules can be read; its models are allowed; a root
 * run of a tenant gets one of the tenant's run slots; its tool set (run-tools.ts: once per agent
 * run, a continued run keeps the set it started with; described by the first model call when
 * nothing before it renders tools); no tool takes an injected tool's name. A new run that names an agent follows its definition from then on
 * (resolve-agent.ts; an unknown name is refused). A refusal is a visible step and ends the run with `error`; a name
 * clash is a bad input and fails it. The decision itself when nothing was waited for (most runs),
 * else its promise.
 */
export function preflight(ctx: RunContext, carriedTools: ToolSpec[] | undefined): Preflight | Promise<Preflight> {
  const { input, chain } = ctx;
  // Only a new agent run checks (a continued one passed already).
  const unreadable = carriedTools ? undefined : approvalRuleProblem(input);
  if (unreadable) {
    throw ApplicationFailure.create({
      type: FailureType.InvalidAgentInput,
      message: `${unreadable}; fix the rule (RE2 syntax: no backreferences or lookaround).`,
      nonRetryable: true,
    });
  }
  const refused = modelRefusal(input);
  if (refused) return refuse(chain, refused);
  // Sub-agents run inside their root's slot; their model calls still lease the tenant's tokens.
  const needsSlot = input.caller?.tenant !== undefined && !carriedTools && !input.delegation;
  // A new run follows its agent definition from here on (resolve-agent.ts).
  const byAgent = !carriedTools && (input.agent !== undefined || input.definition !== undefined);
  // Most runs wait for nothing here, and then nothing is awaited (each await is a promise the SDK takes a stack trace for).
  return needsSlot || byAgent
    ? afterLookups(ctx, carriedTools, needsSlot, byAgent)
    : afterAgent(ctx, carriedTools, { input });
}

/** What a preflight decides: the run's tools, or why it is refused. */
export type Preflight = { tools: RunTools } | { refused: RunOutcome };

function refuse(chain: RunContext['chain'], why: string): Preflight {
  chain.thinking(`Refused: ${why}`, { level: 'full' });
  return { refused: { reason: 'error', answer: '', error: why } };
}

/** A root run of a tenant gets one of the tenant's run slots; a run by agent resolves its definition. */
async function afterLookups(
  ctx: RunContext,
  carriedTools: ToolSpec[] | undefined,
  needsSlot: boolean,
  byAgent: boolean,
): Promise<Preflight> {
  const { input, chain, workflowId } = ctx;
  if (needsSlot) {
    const slot = await activities.acquireTenantRun({ tenant: input.caller!.tenant!, workflowId });
    if (!slot.granted) return refuse(chain, slot.reason);
  }
  const resolved: ResolvedAgent = byAgent ? await resolveAgent(ctx) : { input };
  if ('refused' in resolved) return refuse(chain, resolved.refused);
  return afterAgent(ctx, carriedTools, resolved);
}

/** The agent resolved: its variant's model, its guardrails, then its tools. */
function afterAgent(
  ctx: RunContext,
  carriedTools: ToolSpec[] | undefined,
  resolved: Exclude<ResolvedAgent, { refused: string }>,
): Preflight | Promise<Preflight> {
  const given = ctx.input;
  ctx.input = resolved.input;
  // An experiment's variant may set the model: it obeys allowedModels like the caller's.
  const variantRefused = ctx.input.model !== given.model ? modelRefusal(ctx.input) : undefined;
  if (variantRefused) return refuse(ctx.chain, variantRefused);
  if (carriedTools) return { tools: RunTools.known(ctx.input, carriedTools) };
  // Only a run that names guardrails awaits their descriptions.
  if (!guardrailNames(ctx.input).length) return withoutGivenSpecs(ctx) ?? toolsOf(ctx, resolved);
  return describeGuardrails(ctx).then((guarded) => (guarded ? refuse(ctx.chain, guarded) : toolsOf(ctx, resolved)));
}

/** A new run's tool set: described by its definition, by its first model call, or by a `describeTools` activity first. */
function toolsOf(
  ctx: RunContext,
  resolved: Exclude<ResolvedAgent, { refused: string }>,
): Preflight | Promise<Preflight> {
  const names = splitToolNames(ctx.input, ctx.workflowId);
  if (resolved.tools) return { tools: RunTools.described(ctx.input, resolved.tools, names.agents) };
  if (describedByFirstCall(ctx.input))
    return { tools: RunTools.describedByFirstCall(ctx.input, names.registered, names.agents) };
  if (names.registered?.length === 0) return { tools: RunTools.described(ctx.input, [], names.agents) };
  return activities
    .describeTools(names.registered)
    .then((registered) => ({ tools: RunTools.described(ctx.input, registered, names.agents) }));
}

/**
 * Whether the run's first model call may describe its registered tools: not when something reads
 * them before it, namely text ReAct's system prompt, the planner's first plan, or a budget or
 * tenant quota that prices the first call's input, tools included, before it is made (a cap is
 * never passed on an estimate that left them out).
 */
const describedByFirstCall = (input: AgentInput): boolean =>
  input.strategy !== 'react-text' &&
  !input.planning &&
  input.tokenBudget === undefined &&
  input.costBudgetUsd === undefined &&
  !input.caller?.tenant;

/**
 * A new run's guardrails: its definition's, then its own, described by the worker in one
 * activity (only when there are any: a run without guardrails records what it always did). The
 * stages are kept on the input (`guardrailSpecs`), so handovers and replays keep them; a caller's
 * own `guardrailSpecs` is replaced. Returns why the run is refused, or undefined.
 */
async function describeGuardrails(ctx: RunContext): Promise<string | undefined> {
  const { guardrailSpecs: _given, ...input } = ctx.input;
  const names = guardrailNames(input);
  if (names.length > MAX_RUN_GUARDRAILS)
    return `the run and its agent name ${names.length} guardrails; at most ${MAX_RUN_GUARDRAILS}.`;
  const described = await activities.describeGuardrails(names);
  if (!described.found) {
    const known = described.known.length ? `it has ${described.known.join(', ')}` : 'it has none registered';
    return `no guardrail ${described.unknown.map((n) => `"${n}"`).join(', ')} is registered on the worker that took this run (${known}).`;
  }
  ctx.input = { ...input, guardrailSpecs: described.specs };
  return undefined;
}

const guardrailNames = (input: AgentInput): string[] => [
  ...new Set([...(input.definition?.guardrails ?? []), ...(input.guardrails ?? [])]),
];

/** A run that names no guardrails drops the specs its caller sent: only a worker describes guardrails. */
function withoutGivenSpecs(ctx: RunContext): undefined {
  if (ctx.input.guardrailSpecs === undefined) return undefined;
  const { guardrailSpecs: _given, ...input } = ctx.input;
  ctx.input = input;
  return undefined;
}

/** The first run-level approval rule (input.approvals, by tool) that can never be read, or undefined. */
function approvalRuleProblem(input: AgentInput): string | undefined {
  for (const [tool, policy] of Object.entries(input.approvals)) {
    const problem = policyProblem(policy);
    if (problem) return `approvals.${tool}: ${problem}`;
  }
  return undefined;
}

/**
 * Why the run may not use its models, or undefined. With `allowedModels` set, the model, every
 * fallback, the context-summary model and the grounding and branch judges must be listed, by name or as `provider/model`; a fallback outside it is not silently
 * dropped, because the caller asked for it.
 */
function modelRefusal(input: AgentInput): string | undefined {
  const allowed = input.allowedModels;
  if (!allowed) return undefined;
  const judges = [input.grounding?.judge, input.branching?.judge].flatMap((j) => (j ? [j] : []));
  const models = [
    input.model,
    ...input.model.fallbacks,
    ...(input.contextSummary?.model ? [input.contextSummary.model] : []),
    ...judges,
  ];
  const outside = models.filter((m) => !allowed.includes(m.model) && !allowed.includes(`${m.provider}/${m.model}`));
  if (outside.length === 0) return undefined;
  const names = outside.map((m) => `${m.provider}/${m.model}`).join(', ');
  return `model ${names} is not in this run's allowedModels (${allowed.join(', ')}).`;
}
