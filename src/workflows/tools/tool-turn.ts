import { approvalNeeded } from '../../domain/approval/approval-policy';
import { auditedResult } from '../../domain/tools/tool-audit';
import { ownValue } from '../../domain/text/own-value';
import type { AgentInput, ToolSpec, ToolUseBlock } from '../../domain';
import type { ToolCallStep } from '../core/chain/chain-builder';
import { settleWithLimit } from '../core/concurrency';
import { mapStep, stepPromise, type Step } from '../core/pending';
import type { Observation, ValidCall } from '../core/model-exchange';
import { recordToolCall, refuseCall } from '../core/chain/record-calls';
import type { RunContext } from '../core/state/run-context';
import { runSubAgentCall } from '../delegation/sub-agent-call';
import { runBranches } from '../branching/explore-branches';
import type { SubAgentTree } from '../delegation/sub-agent-tree';
import type { ApprovalGate } from '../people/approval-gate';
import { notApproved, requestApprovals, type ApprovalNeeded, type Decisions } from '../people/approval-requests';
import { askPerson } from '../people/ask-person';
import type { QuestionDesk } from '../people/question-desk';
import type { PlanKeeper } from '../planning/plans/plan-keeper';
import { withAlternatives } from './alternatives';
import { routeModel } from './route-model';
import { runToolCall } from './tool-call';
import type { ToolCallCheck } from './validate-tool-call';
import { validateBeforeApproval, type PreValidated } from './validate-before-approval';

/** Where one of a turn's calls goes, decided before anything runs. */
type CallRoute =
  /** `spec` when the tool is known: the refusal is shown with the tool's own visibility and sensitive fields. */
  | { kind: 'refuse'; call: ToolUseBlock; observation: string; spec?: ToolSpec }
  | { kind: 'run'; call: ToolUseBlock; check: ValidCall }
  | ({ kind: 'approve' } & ApprovalNeeded)
  | { kind: 'ask'; call: ToolUseBlock; question: string }
  /** A report on the plan's progress (`update_task`): applied before anything runs. */
  | { kind: 'task_update'; call: ToolUseBlock };

/** What a tool turn uses besides the run context; the loop builds it once. */
export interface ToolTurnParts {
  validate(call: ToolUseBlock): ToolCallCheck;
  gate: ApprovalGate;
  desk: QuestionDesk;
  tree: SubAgentTree;
  /** Present when the run plans. */
  planKeeper: PlanKeeper | undefined;
}

/**
 * One turn's tool calls: refused ones (unknown, invalid, outside the caller's roles) become error
 * observations; calls that need approval are all requested at once and decided one by one; then
 * the calls that may run do so concurrently (at most `maxParallelToolCalls` at a time, sub-agents
 * as concurrent child runs), questions for a person one at a time after them, and all results go
 * back together in the model's order.
 */
export function runToolTurn(
  ctx: RunContext,
  parts: ToolTurnParts,
  calls: readonly ToolUseBlock[],
  refused: ReadonlyMap<string, string>,
): Step<Observation[]> {
  // A choice of the next task the turn did not make falls to plan order before any call is routed.
  parts.planKeeper?.settleChoice(calls);
  const checked = calls.map((call) => routeCall(ctx, parts, call, refused.get(call.id)));
  // Most turns are one call that may run: its step, mapped (pending.ts), instead of an async layer
  // and its await (each a promise the SDK takes a stack trace for, on every workflow task and replay).
  const [only] = checked;
  if (checked.length !== 1 || only?.kind !== 'run') return routedTurn(ctx, parts, checked);
  // Alone in its turn, a sub-agent call shares its budget with no other (share 1).
  return mapStep(
    runCall(ctx, parts, () => 1, only.call, routedCheck(ctx, only.check), undefined, false),
    (o) => [o],
  );
}

/** A turn with approvals, questions, task updates, refusals or several calls: see runToolTurn. */
async function routedTurn(
  ctx: RunContext,
  parts: ToolTurnParts,
  checked: readonly CallRoute[],
): Promise<Observation[]> {
  const asked = checked.filter((r): r is Extract<CallRoute, { kind: 'approve' }> => r.kind === 'approve');
  // Tools with a validate hook check a call before anyone is asked to approve it.
  const validated = asked.length === 0 ? new Map<string, PreValidated>() : await validateBeforeApproval(ctx, asked);
  // A turn without task updates or approvals (most turns) awaits neither: each await is a promise
  // the SDK takes a stack trace for, on every workflow task and replay.
  const updated = !checked.some((r) => r.kind === 'task_update')
    ? new Map<string, Observation>()
    : await applyTaskUpdates(parts, checked);
  // Models are chosen after the turn's task updates, for the task the calls are made in; a call
  // already recorded for its validate hook keeps its arguments as validated.
  const routes = checked.map((r) => (validated.has(r.call.id) ? r : withRoutedModel(ctx, r)));
  const approvals = routes.flatMap((r) => {
    if (r.kind !== 'approve') return [];
    const pre = validated.get(r.call.id);
    return pre?.refused ? [] : [{ ...r, ...(pre ? { step: pre.step } : {}) }];
  });
  const decided: Decisions = approvals.length === 0 ? new Map() : await requestApprovals(ctx, parts.gate, approvals);
  const runnable = routes.filter(
    (r) => r.kind === 'run' || (r.kind === 'approve' && decided.get(r.call.id)?.record.status === 'approved'),
  );
  let sharers = runnable.filter((r) => 'check' in r && r.check.spec.type === 'sub_agent').length;
  const share = () => Math.max(1, sharers--);
  const execute = (call: ToolUseBlock, check: ValidCall, step: ToolCallStep | undefined) =>
    stepPromise(runCall(ctx, parts, share, call, check, step, validated.has(call.id)));
  const refusedFirst = new Map(
    [...validated].flatMap(([id, pre]) => (pre.refused ? [[id, pre.refused] as const] : [])),
  );
  if (runnable.length >= 2) return runConcurrently(ctx, parts, routes, decided, refusedFirst, updated, execute);
  const observations: Observation[] = [];
  for (const route of routes) {
    switch (route.kind) {
      case 'task_update':
        observations.push(updated.get(route.call.id)!);
        break;
      case 'refuse':
        observations.push(refuseRouted(ctx, route));
        break;
      case 'run':
        observations.push(await execute(route.call, route.check, undefined));
        break;
      case 'approve': {
        const refusal = refusedFirst.get(route.call.id);
        if (refusal) {
          observations.push(refusal);
          break;
        }
        const { record, step } = decided.get(route.call.id)!;
        // Approved: exactly the arguments that were shown and hashed.
        observations.push(
          record.status === 'approved' ? await execute(route.call, route.check, step) : notApproved(ctx, record, step),
        );
        break;
      }
      case 'ask':
        observations.push(await askPerson(ctx, parts.desk, route.call, route.question));
        break;
      default: {
        const unreachable: never = route;
        throw new Error(`Unhandled call route ${JSON.stringify(unreachable)}`);
      }
    }
  }
  return observations;
}

type Execute = (call: ToolUseBlock, check: ValidCall, step: ToolCallStep | undefined) => Promise<Observation>;

/**
 * The concurrent turn: every call that may run is recorded first, in the model's order, and
 * tagged as one parallel group; then they run with the concurrency cap; results land in the
 * chain as they finish, and go back to the model in its order.
 */
async function runConcurrently(
  ctx: RunContext,
  parts: ToolTurnParts,
  routes: readonly CallRoute[],
  decided: Decisions,
  refusedFirst: ReadonlyMap<string, Observation>,
  updated: ReadonlyMap<string, Observation>,
  execute: Execute,
): Promise<Observation[]> {
  const observations: Array<Observation | undefined> = routes.map((r) => updated.get(r.call.id));
  const jobs: Array<{ index: number; call: ToolUseBlock; check: ValidCall; step: ToolCallStep }> = [];
  for (const [index, route] of routes.entries()) {
    if (route.kind === 'refuse') observations[index] = refuseRouted(ctx, route);
    if (route.kind === 'run')
      jobs.push({
        index,
        call: route.call,
        check: route.check,
        step: recordToolCall(
          ctx.chain,
          ctx.input,
          route.check.spec,
          route.call.id,
          route.check.args,
          route.check.routed,
        ),
      });
    if (route.kind === 'approve' && refusedFirst.has(route.call.id))
      observations[index] = refusedFirst.get(route.call.id);
    else if (route.kind === 'approve') {
      const { record, step } = decided.get(route.call.id)!;
      if (record.status === 'approved') jobs.push({ index, call: route.call, check: route.check, step });
      else observations[index] = notApproved(ctx, record, step);
    }
  }
  ctx.chain.tagParallel(jobs.map((j) => j.step));
  ctx.progress.publish();
  const results = await settleWithLimit(jobs, ctx.input.maxParallelToolCalls, (job) =>
    execute(job.call, job.check, job.step),
  );
  results.forEach((observation, k) => (observations[jobs[k]!.index] = observation));
  for (const [index, route] of routes.entries()) {
    if (route.kind === 'ask') observations[index] = await askPerson(ctx, parts.desk, route.call, route.question);
  }
  return observations.map((o, i) => o ?? { callId: routes[i]!.call.id, content: 'Not run.', isError: true });
}

/** A tool activity, or child runs for a `sub_agent` tool or the branching tool (its call step names the child, so it is recorded first). */
function runCall(
  ctx: RunContext,
  parts: ToolTurnParts,
  share: () => number,
  call: ToolUseBlock,
  check: ValidCall,
  step: ToolCallStep | undefined,
  validated: boolean,
): Step<Observation> {
  if (check.spec.type !== 'sub_agent')
    return runToolCall(ctx, call, check, step, { desk: parts.desk, gate: parts.gate, validated });
  const callStep = step ?? recordToolCall(ctx.chain, ctx.input, check.spec, call.id, check.args);
  if (check.spec.name === ctx.input.branching?.toolName) return runBranches(ctx, parts.tree, call, check, callStep);
  return runSubAgentCall(ctx, { tree: parts.tree, sharers: share() }, call, check, callStep);
}

/** Task updates go first, in the model's order: a task completed in this turn unblocks the next before its calls run. */
async function applyTaskUpdates(parts: ToolTurnParts, routes: readonly CallRoute[]): Promise<Map<string, Observation>> {
  const done = new Map<string, Observation>();
  for (const route of routes) {
    if (route.kind === 'task_update' && parts.planKeeper)
      done.set(route.call.id, await parts.planKeeper.update(route.call));
  }
  return done;
}

function refuseRouted(ctx: RunContext, route: Extract<CallRoute, { kind: 'refuse' }>): Observation {
  return route.spec
    ? refuseKnownTool(ctx, route.call, route.spec, route.observation)
    : refuseCall(ctx.chain, ctx.input, route.call, route.observation);
}

function routeCall(ctx: RunContext, parts: ToolTurnParts, call: ToolUseBlock, refusal: string | undefined): CallRoute {
  const { input } = ctx;
  if (refusal) return { kind: 'refuse', call, observation: refusal };
  if (parts.planKeeper && call.name === parts.planKeeper.updateToolName) return { kind: 'task_update', call };
  if (input.allowQuestions && call.name === input.questionToolName) {
    const question = typeof call.input['question'] === 'string' ? call.input['question'].trim() : '';
    return question
      ? { kind: 'ask', call, question }
      : { kind: 'refuse', call, observation: `Error: "${call.name}" needs a non-empty "question".` };
  }
  const check = parts.validate(call);
  if (!check.ok)
    return { kind: 'refuse', call, observation: check.observation, ...(check.spec ? { spec: check.spec } : {}) };
  const missingRole = roleProblem(input, check);
  if (missingRole) return { kind: 'refuse', call, observation: missingRole, spec: check.spec };
  // A workflow file's current step may allow only some tools, or have every call approved.
  const step = parts.planKeeper?.toolRule(check.spec.name);
  if (step?.kind === 'refuse') return { kind: 'refuse', call, observation: step.observation, spec: check.spec };
  const policy = ownValue(input.approvals, check.spec.name) ?? check.spec.approval;
  // Rule-based policies fail closed on arguments they cannot read.
  const verdict = approvalNeeded(policy, check.args);
  if (verdict.needed) return { kind: 'approve', call, check, reason: verdict.reason };
  // The step's approval goes through the same gate, as if the run's policy were `always` for the tool.
  return step?.kind === 'approve'
    ? { kind: 'approve', call, check, reason: step.reason }
    : { kind: 'run', call, check };
}

/** A call that may run, its model chosen by the plan task's complexity when it named none (route-model.ts). */
function withRoutedModel(ctx: RunContext, route: CallRoute): CallRoute {
  if (route.kind !== 'run' && route.kind !== 'approve') return route;
  const check = routedCheck(ctx, route.check);
  return check === route.check ? route : { ...route, check };
}

function routedCheck(ctx: RunContext, check: ValidCall): ValidCall {
  return routeModel(check, ctx.chain.plan, ctx.input.planning?.routeModels ?? true);
}

/** A tool with `requiredRoles` runs only for a caller holding one of them. */
function roleProblem(input: AgentInput, { spec }: ValidCall): string | undefined {
  const required = spec.requiredRoles ?? [];
  if (required.length === 0) return undefined;
  const roles = input.caller?.roles ?? [];
  if (roles.some((r) => required.includes(r))) return undefined;
  const who = input.caller ? `${input.caller.id} has ${roles.join(', ') || 'no roles'}` : 'the run has no caller';
  return withAlternatives(
    spec,
    `Not run: "${spec.name}" requires one of the roles ${required.join(', ')}; ${who}. Use another tool or explain what you need.`,
  );
}

/** A refused call to a known tool keeps that tool's type, visibility and sensitive fields in the chain. */
function refuseKnownTool(ctx: RunContext, call: ToolUseBlock, spec: ToolSpec, observation: string): Observation {
  const step = recordToolCall(ctx.chain, ctx.input, spec, call.id, call.input);
  ctx.chain.toolResult(
    auditedResult(spec, { correlationId: call.id, success: false, result: null, error: observation, durationMs: 0 }),
    step.visibility,
  );
  return { callId: call.id, content: observation, isError: true };
}
