import { patched } from '@temporalio/workflow';
import { approvalNeeded } from '../../shared/approval-policy';
import { argumentsHash, type AgentInput, type ApprovalRecord, type ReasoningStep, type ToolSpec, type ToolUseBlock } from '../../shared';
import type { ApprovalGate } from '../people/approval-gate';
import { refuseCall } from '../core/control-calls';
import { settleWithLimit } from '../core/concurrency';
import type { PlanKeeper } from '../planning/plan-keeper';
import type { QuestionDesk } from '../people/question-desk';
import { runSubAgentCall } from '../delegation/sub-agent-call';
import type { SubAgentTree } from '../delegation/sub-agent-tree';
import type { Observation } from '../loop/strategies';
import { recordToolCall, runToolCall, type ToolRunContext } from './tool-call';
import type { ToolCallCheck } from './validate-tool-call';

type ValidCall = Extract<ToolCallCheck, { ok: true }>;

/** What one turn's calls become before anything runs. */
type Plan =
  /** `spec` when the tool is known: the refusal is shown with the tool's own visibility and sensitive fields. */
  | { kind: 'refuse'; call: ToolUseBlock; observation: string; spec?: ToolSpec }
  | { kind: 'run'; call: ToolUseBlock; check: ValidCall }
  | { kind: 'approve'; call: ToolUseBlock; check: ValidCall; reason: string }
  | { kind: 'ask'; call: ToolUseBlock; question: string }
  /** A report on the plan's progress (`update_task`): applied before anything runs. */
  | { kind: 'plan'; call: ToolUseBlock };

export interface ToolTurnContext extends ToolRunContext {
  validate(call: ToolUseBlock): ToolCallCheck;
  gate: ApprovalGate;
  desk: QuestionDesk;
  /** Publishes status and search attributes (one history event). */
  publish(): void;
  tree: SubAgentTree;
  /** Present when the run plans. */
  plans: PlanKeeper | undefined;
}

/** Marks histories whose turns run their calls concurrently; older histories replay the sequential order. */
export const PARALLEL_TOOL_CALLS_PATCH = 'parallel-tool-calls';

/**
 * One turn's tool calls: refused ones (unknown, invalid, outside the caller's roles) become error
 * observations; calls that need approval are all requested at once and decided one by one; then
 * the calls that may run do so concurrently (at most `maxParallelToolCalls` at a time, sub-agents
 * as concurrent child runs), questions for a person one at a time after them, and all results go
 * back together in the model's order.
 */
export async function runToolTurn(ctx: ToolTurnContext, calls: readonly ToolUseBlock[], refused: ReadonlyMap<string, string>): Promise<Observation[]> {
  const plans = calls.map((call) => planCall(ctx, call, refused.get(call.id)));
  const planned = await applyPlanUpdates(ctx, plans);
  const decided = await requestApprovals(ctx, plans.filter((p): p is Extract<Plan, { kind: 'approve' }> => p.kind === 'approve'));
  const runnable = plans.filter((p) => p.kind === 'run' || (p.kind === 'approve' && decided.get(p.call.id)?.record.status === 'approved'));
  let sharers = runnable.filter((p) => 'check' in p && p.check.spec.type === 'sub_agent').length;
  const share = () => Math.max(1, sharers--);
  if (runnable.length >= 2 && patched(PARALLEL_TOOL_CALLS_PATCH)) return runConcurrently(ctx, plans, decided, planned, share);
  const observations: Observation[] = [];
  for (const plan of plans) {
    switch (plan.kind) {
      case 'plan':
        observations.push(planned.get(plan.call.id)!);
        break;
      case 'refuse':
        observations.push(refusePlanned(ctx, plan));
        break;
      case 'run':
        observations.push(await execute(ctx, plan.call, plan.check, undefined, share));
        break;
      case 'approve': {
        const { record, step } = decided.get(plan.call.id)!;
        // Approved: exactly the arguments that were shown and hashed.
        observations.push(record.status === 'approved' ? await execute(ctx, plan.call, plan.check, step, share) : notApproved(ctx, record, step));
        break;
      }
      case 'ask':
        observations.push(await askPerson(ctx, plan.call, plan.question));
        break;
      default: {
        const unreachable: never = plan;
        throw new Error(`Unhandled plan ${JSON.stringify(unreachable)}`);
      }
    }
  }
  return observations;
}

/**
 * The concurrent turn: every call that may run is recorded first, in the model's order, and
 * tagged as one parallel group; then they run with the concurrency cap; results land in the
 * chain as they finish, and go back to the model in its order.
 */
async function runConcurrently(ctx: ToolTurnContext, plans: readonly Plan[], decided: Decisions, planned: ReadonlyMap<string, Observation>, share: () => number): Promise<Observation[]> {
  const observations: Array<Observation | undefined> = plans.map((p) => planned.get(p.call.id));
  const jobs: Array<{ index: number; call: ToolUseBlock; check: ValidCall; step: ReasoningStep }> = [];
  for (const [index, plan] of plans.entries()) {
    if (plan.kind === 'refuse') observations[index] = refusePlanned(ctx, plan);
    if (plan.kind === 'run') jobs.push({ index, call: plan.call, check: plan.check, step: recordToolCall(ctx.chain, ctx.input, plan.check.spec, plan.call.id, plan.check.args) });
    if (plan.kind === 'approve') {
      const { record, step } = decided.get(plan.call.id)!;
      if (record.status === 'approved') jobs.push({ index, call: plan.call, check: plan.check, step });
      else observations[index] = notApproved(ctx, record, step);
    }
  }
  ctx.chain.tagParallel(jobs.map((j) => j.step));
  ctx.publish();
  const results = await settleWithLimit(jobs, ctx.input.maxParallelToolCalls, (job) => execute(ctx, job.call, job.check, job.step, share));
  results.forEach((observation, k) => (observations[jobs[k]!.index] = observation));
  for (const [index, plan] of plans.entries()) {
    if (plan.kind === 'ask') observations[index] = await askPerson(ctx, plan.call, plan.question);
  }
  return observations.map((o, i) => o ?? { callId: plans[i]!.call.id, content: 'Not run.', isError: true });
}

/** A tool activity, or a child run for a `sub_agent` tool. */
function execute(ctx: ToolTurnContext, call: ToolUseBlock, check: ValidCall, step: ReasoningStep | undefined, share: () => number): Promise<Observation> {
  if (check.spec.type === 'sub_agent') return runSubAgentCall({ ...ctx, sharers: share }, call, check, step);
  return runToolCall(ctx, call, check, step);
}

/** Plan updates go first, in the model's order: a task completed in this turn unblocks the next before its calls run. */
async function applyPlanUpdates(ctx: ToolTurnContext, plans: readonly Plan[]): Promise<Map<string, Observation>> {
  const done = new Map<string, Observation>();
  for (const plan of plans) {
    if (plan.kind === 'plan' && ctx.plans) done.set(plan.call.id, await ctx.plans.update(plan.call));
  }
  return done;
}

function refusePlanned(ctx: ToolTurnContext, plan: Extract<Plan, { kind: 'refuse' }>): Observation {
  return plan.spec ? refuseKnownTool(ctx, plan.call, plan.spec, plan.observation) : refuseCall(ctx.chain, ctx.input, plan.call, plan.observation);
}

type Decisions = Map<string, { record: ApprovalRecord; step: ReasoningStep }>;

function planCall(ctx: ToolTurnContext, call: ToolUseBlock, refusal: string | undefined): Plan {
  const { input } = ctx;
  if (refusal) return { kind: 'refuse', call, observation: refusal };
  if (ctx.plans && call.name === ctx.plans.updateToolName) return { kind: 'plan', call };
  if (input.allowQuestions && call.name === input.questionToolName) {
    const question = typeof call.input['question'] === 'string' ? call.input['question'].trim() : '';
    return question ? { kind: 'ask', call, question } : { kind: 'refuse', call, observation: `Error: "${call.name}" needs a non-empty "question".` };
  }
  const check = ctx.validate(call);
  if (!check.ok) return { kind: 'refuse', call, observation: check.observation, ...(check.spec ? { spec: check.spec } : {}) };
  const missingRole = roleProblem(input, check);
  if (missingRole) return { kind: 'refuse', call, observation: missingRole, spec: check.spec };
  const policy = input.approvals[check.spec.name] ?? check.spec.approval;
  const verdict = approvalNeeded(policy, check.args);
  return verdict.needed ? { kind: 'approve', call, check, reason: verdict.reason } : { kind: 'run', call, check };
}

/** A tool with `requiredRoles` runs only for a caller holding one of them. */
function roleProblem(input: AgentInput, { spec }: ValidCall): string | undefined {
  const required = spec.requiredRoles ?? [];
  if (required.length === 0) return undefined;
  const roles = input.caller?.roles ?? [];
  if (roles.some((r) => required.includes(r))) return undefined;
  const who = input.caller ? `${input.caller.id} has ${roles.join(', ') || 'no roles'}` : 'the run has no caller';
  return `Not run: "${spec.name}" requires one of the roles ${required.join(', ')}; ${who}. Use another tool or explain what you need.`;
}

async function requestApprovals(
  ctx: ToolTurnContext,
  plans: ReadonlyArray<Extract<Plan, { kind: 'approve' }>>,
): Promise<Decisions> {
  const steps = new Map<string, ReasoningStep>();
  if (plans.length === 0) return new Map();
  const { chain, input, workflowId } = ctx;
  const requests = plans.map(({ call, check, reason }) => {
    const step = recordToolCall(chain, input, check.spec, call.id, check.args);
    steps.set(call.id, step);
    chain.thinking(`Waiting for approval of ${check.spec.name} (call ${call.id}): ${reason}. Decide with: thoughtline approve ${workflowId} ${call.id}  (or reject … --reason)`, { level: 'full' });
    return { callId: call.id, stepId: step.stepId, toolName: check.spec.name, arguments: check.args, argumentsHash: argumentsHash(check.args), reason, approverRoles: check.spec.approverRoles ?? [] };
  });
  chain.setStatus('waiting');
  // Open, then publish (the search attribute says waiting_approval), then the timer: this order is in recorded histories.
  ctx.gate.open(requests, new Date(Date.now() + input.approvalTimeoutMs).toISOString());
  ctx.publish();
  const records = await ctx.gate.wait(requests, input.approvalTimeoutMs);
  chain.setStatus('tool_calling');
  ctx.publish();
  return new Map(records.map((record) => [record.callId, { record, step: steps.get(record.callId)! }]));
}

/** A refused call to a known tool keeps that tool's type, visibility and sensitive fields in the chain. */
function refuseKnownTool(ctx: ToolTurnContext, call: ToolUseBlock, spec: ToolSpec, observation: string): Observation {
  const step = recordToolCall(ctx.chain, ctx.input, spec, call.id, call.input);
  ctx.chain.toolResult({ correlationId: call.id, success: false, result: null, error: observation, durationMs: 0 }, step.visibility);
  return { callId: call.id, content: observation, isError: true };
}

function notApproved(ctx: ToolTurnContext, record: ApprovalRecord, step: ReasoningStep): Observation {
  const error =
    record.status === 'rejected'
      ? `Not run: ${record.decidedBy?.id ?? 'a person'} rejected this call: ${record.note ?? 'no reason given'}.`
      : `Not run: nobody approved this call within ${inWords(ctx.input.approvalTimeoutMs)}.`;
  ctx.chain.toolResult({ correlationId: record.callId, success: false, result: null, error, durationMs: 0 }, step.visibility);
  return { callId: record.callId, content: error, isError: true };
}

/** The model's question for a person: the run waits (at no cost) for the `answer` update. */
async function askPerson(ctx: ToolTurnContext, call: ToolUseBlock, question: string): Promise<Observation> {
  const { chain, input } = ctx;
  const visibility = { level: input.visibility };
  chain.toolCall({ toolType: 'custom', toolName: call.name, arguments: call.input, correlationId: call.id }, visibility);
  const askedAt = new Date().toISOString();
  const expiresAt = new Date(Date.now() + input.questionTimeoutMs).toISOString();
  chain.setStatus('waiting');
  const waiting = ctx.desk.ask({ callId: call.id, question, askedAt, expiresAt }, input.questionTimeoutMs);
  ctx.publish();
  const answer = await waiting;
  chain.setStatus('tool_calling');
  ctx.publish();
  if (!answer) {
    const error = `Nobody answered within ${inWords(input.questionTimeoutMs)}; go on with what you know, or give up.`;
    chain.toolResult({ correlationId: call.id, success: false, result: null, error, durationMs: Date.parse(expiresAt) - Date.parse(askedAt) }, visibility);
    return { callId: call.id, content: error, isError: true };
  }
  const durationMs = Date.now() - Date.parse(askedAt);
  chain.toolResult({ correlationId: call.id, success: true, result: answer.text, durationMs }, visibility, { fromPerson: { kind: 'answer', by: answer.by } });
  return { callId: call.id, content: `Answer from ${answer.by}: ${answer.text}`, isError: false };
}

/** A wait in the largest whole unit that fits, for people and the model: "7 days", "90 seconds". */
function inWords(ms: number): string {
  const units: Array<[string, number]> = [['day', 86_400_000], ['hour', 3_600_000], ['minute', 60_000], ['second', 1_000]];
  for (const [name, size] of units) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${name}${ms === size ? '' : 's'}`;
  }
  return `${ms} ms`;
}
