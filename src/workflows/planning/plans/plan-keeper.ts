import type { AgentInput, Plan, PlanningSettings, ToolUseBlock } from '../../../domain';
import type { CacheHit, TaskChoice } from '../../../domain/planning/plan-verdicts';
import { alikeText } from '../../../domain/text/similarity';
import { reusePlan, storePlan } from '../../cache/plan-cache';
import type { ChainBuilder } from '../../core/chain/chain-builder';
import { injectedToolNames } from '../../core/injected-tools';
import { ModelCallFailed } from '../../core/loop-signals';
import { replyText, type ModelPrompt, type Observation } from '../../core/model-exchange';
import { recordControlCall } from '../../core/chain/record-calls';
import type { RunContext } from '../../core/state/run-context';
import type { RunState } from '../../core/state/run-state';
import { recallMemory } from '../../memory/run-memory';
import { recordedModelCall } from '../../model/model-call';
import { checkGoal } from '../verdicts/goal-check';
import { observeAction, withLearnings } from '../verdicts/observer';
import { applyFallback, type AskUser } from '../apply-fallback';
import { planNote, reflectionPrompt } from './plan-prompts';
import { applyTaskUpdate, isPlanFinished, parseTaskUpdate, type TaskUpdate } from './plan-tracker';
import { fallbackPlan, makePlan, replan, type PlanAttempt, type PlannerModel } from './planner';
import { stepToolRule, type StepToolRule } from './step-tool-rule';
import { awaitsChoice, modelChoice, refusedChoiceMessage, startByPlanOrder, startNext } from './task-choice';
import { workflowPlan } from './workflow-plan';

/**
 * Planning for one run (docs/teams-and-plans.md): makes the plan before the first thought, keeps it in the
 * chain (so `status`, views and continue-as-new carry it), applies the model's task updates in
 * dependency order, re-plans after a failure while re-plans are left, and reflects every N
 * iterations. Every model call it makes is a visible `llm` step on the run's budget.
 */
export class PlanKeeper {
  private readonly input: AgentInput;
  private readonly chain: ChainBuilder;
  private readonly state: RunState;

  constructor(
    private readonly ctx: RunContext,
    private readonly settings: PlanningSettings,
    private readonly prompt: ModelPrompt,
    private readonly toolNames: readonly string[],
    /** How the `ask_user` fallback asks a person (the run's question desk); absent, that fallback is refused. */
    private readonly askUser?: AskUser,
  ) {
    this.input = ctx.input;
    this.chain = ctx.chain;
    this.state = ctx.state;
  }

  get updateToolName(): string {
    return this.settings.updateToolName;
  }

  /** The loop awaits the observer and the goal check only when they are on (each await costs the sandbox a stack trace). */
  get observes(): boolean {
    return this.settings.observe;
  }
  get checksGoal(): boolean {
    return this.settings.goalCheck;
  }

  /** Plans once per agent run (a continued run already has its plan), then tells the model where to start. */
  async start(): Promise<void> {
    if (this.chain.plan) return;
    // Memory (planning.memory): read before planning, so earlier runs' learnings reach the first prompts.
    const remembered = this.settings.memory ? await recallMemory(this.ctx) : [];
    // Plan reuse (cache.plans): a plan stored for a similar goal comes before the planner; never for a workflow file's plan.
    const reused =
      !this.settings.workflow && this.input.cache?.plans
        ? await reusePlan(this.ctx, this.input.task, this.toolNames)
        : undefined;
    const made = this.settings.workflow
      ? { plan: workflowPlan(this.settings.workflow), attempts: [] }
      : reused
        ? { plan: freshCopy(reused.plan), attempts: [] }
        : await this.askPlanner();
    if (!reused && this.input.cache?.plans && (made.plan.source === 'model' || made.plan.source === 'repaired'))
      await storePlan(this.ctx, this.input.task, this.toolNames, made.plan);
    const learnings = remembered.length > 0 ? withLearnings(undefined, remembered) : undefined;
    const { plan, choose } = startNext(learnings ? { ...made.plan, learnings } : made.plan);
    this.chain.setPlan(plan);
    this.chain.note(
      'plan',
      `${describeOrigin(plan, made.attempts)}\n${taskList(plan)}`,
      { level: this.input.visibility },
      plan,
      reused ? { cacheHit: reused.hit } : undefined,
    );
    this.noteChoice(choose);
    this.state.appendUserText(planNote(plan, this.settings));
  }

  /** What a workflow file's step says of a call to `toolName` now (step-tool-rule.ts); free for other plans. */
  toolRule(toolName: string): StepToolRule {
    return stepToolRule(this.chain.plan, toolName, this.settings.updateToolName);
  }

  private async askPlanner(): Promise<{ plan: Plan; attempts: PlanAttempt[] }> {
    try {
      return await makePlan(this.input.task, this.toolNames, this.settings, this.planner(), this.input.context);
    } catch (err) {
      if (!(err instanceof ModelCallFailed)) throw err;
      // The planner's model failed for good: the run goes on with the fallback plan, and says so.
      return { plan: fallbackPlan(this.input.task, this.settings), attempts: [{ reply: '', problems: [err.message] }] };
    }
  }

  /**
   * Before a tool turn runs anything: when the model was to choose the next task and none of the
   * turn's calls starts one, plan order starts the first ready task (so the turn's tools see a task
   * in progress, as they always did). A turn that starts one goes through `update`.
   */
  settleChoice(calls: readonly ToolUseBlock[]): void {
    const plan = this.chain.plan;
    if (!plan || !awaitsChoice(plan) || calls.some((call) => this.startsTask(call))) return;
    const { plan: next, choose } = startByPlanOrder(plan);
    this.chain.setPlan(next);
    this.noteChoice(choose);
  }

  /** An update-tool call that starts a task (a choice, when the model is to choose). */
  private startsTask(call: ToolUseBlock): boolean {
    if (call.name !== this.settings.updateToolName) return false;
    const parsed = parseTaskUpdate(call.input);
    return parsed.ok && parsed.update.status === 'in_progress' && !parsed.update.fallback;
  }

  /** The record of why the run took up the task it just started: the model's reason, or plan order's. */
  private noteChoice(choose: TaskChoice | undefined): void {
    if (choose)
      this.chain.note('task_choice', choose.reason, { level: this.input.visibility }, undefined, {
        taskChoice: choose,
      });
  }

  /** The model's `update_task` call: applied, refused, or followed by a re-plan; the observation carries the plan as it now stands. */
  async update(call: ToolUseBlock): Promise<Observation> {
    const plan = this.chain.plan;
    const parsed = parseTaskUpdate(call.input);
    if (plan && parsed.ok && awaitsChoice(plan) && this.startsTask(call)) return this.choose(call, plan, parsed.update);
    if (plan && parsed.ok && parsed.update.fallback)
      return applyFallback(
        this.ctx,
        this.settings,
        { toolNames: this.toolNames, askUser: this.askUser },
        call,
        plan,
        parsed.update,
      );
    const applied = !plan
      ? { ok: false as const, message: 'This run has no plan.' }
      : parsed.ok
        ? applyTaskUpdate(plan, parsed.update)
        : { ok: false as const, message: parsed.message };
    if (!applied.ok || !plan) {
      recordControlCall(this.chain, this.input, call, { success: false, error: applied.message });
      return {
        callId: call.id,
        content: `${applied.message}\n\n${plan ? planNote(plan, this.settings) : ''}`.trim(),
        isError: true,
      };
    }
    const started = startNext(applied.plan);
    let next = started.plan;
    recordControlCall(this.chain, this.input, call, { success: true, result: applied.message });
    this.chain.setPlan(next);
    this.noteChoice(started.choose);
    // A workflow file's steps are the plan as written: a re-plan would drop their tools and approvals.
    const replans = next.source === 'workflow' ? false : next.version - 1 < this.settings.maxReplans;
    if (parsed.ok && parsed.update.status === 'failed' && replans)
      next = await this.replanAfter(next, parsed.update.task_id);
    const finished = isPlanFinished(next) ? ' Every task is settled; give your final answer now.' : '';
    return {
      callId: call.id,
      content: `${applied.message}${finished}\n\n${planNote(next, this.settings)}`,
      isError: false,
    };
  }

  /** The model's choice of the next task: started with its reason, or refused (a typed observation) with plan order used. */
  private choose(call: ToolUseBlock, plan: Plan, update: TaskUpdate): Observation {
    const chosen = modelChoice(plan, update.task_id, update.note);
    if (chosen.ok) {
      recordControlCall(this.chain, this.input, call, {
        success: true,
        result: `Task "${chosen.choose.taskId}" is in progress (your choice).`,
      });
      this.chain.setPlan(chosen.plan);
      this.noteChoice(chosen.choose);
      return {
        callId: call.id,
        content: `Task "${chosen.choose.taskId}" is in progress (your choice).\n\n${planNote(chosen.plan, this.settings)}`,
        isError: false,
      };
    }
    const { plan: next, choose } = startByPlanOrder(plan, chosen.refused);
    const message = refusedChoiceMessage(chosen.refused, choose?.taskId);
    recordControlCall(this.chain, this.input, call, { success: false, error: message });
    this.chain.setPlan(next);
    this.noteChoice(choose);
    return { callId: call.id, content: `${message}\n\n${planNote(next, this.settings)}`, isError: true };
  }

  /**
   * The observer (`planning.observe`): after a turn whose calls include one of the run's own tools
   * (not only control calls such as the update tool), one model call judges the action; the
   * reading is a visible `observation` step, its learning joins the plan's, and the model reads both.
   */
  async observe(calls: readonly ToolUseBlock[], observations: readonly Observation[]): Promise<void> {
    if (!this.settings.observe) return;
    const control = new Set(injectedToolNames(this.input).map((t) => t.name));
    const observed = calls.flatMap((call) => {
      const seen = observations.find((o) => o.callId === call.id);
      return control.has(call.name) || !seen
        ? []
        : [{ name: call.name, input: call.input, result: seen.content, isError: seen.isError }];
    });
    if (observed.length === 0) return;
    const outcome = await observeAction(this.ctx, this.chain.plan, observed);
    const plan = this.chain.plan;
    if (plan && outcome.learning)
      this.chain.setPlan({ ...plan, learnings: withLearnings(plan.learnings, [outcome.learning]) });
    this.chain.note(
      'observation',
      outcome.thought,
      { level: this.input.visibility },
      undefined,
      outcome.verdict ? { observation: outcome.verdict } : undefined,
    );
    if (outcome.forModel) this.state.appendUserText(outcome.forModel);
  }

  /** The goal-completion check (`planning.goalCheck`) on a proposed answer: a visible `goal_check` step; an instruction when it is sent back. */
  async checkGoal(answer: string): Promise<{ stands: true } | { stands: false; instruction: string }> {
    if (!this.settings.goalCheck) return { stands: true };
    const checked = await checkGoal(this.ctx, this.settings, this.chain.plan, answer);
    this.chain.note(
      'goal_check',
      checked.thought,
      { level: this.input.visibility },
      undefined,
      checked.verdict ? { goalCheck: checked.verdict } : undefined,
    );
    return checked.stands ? { stands: true } : { stands: false, instruction: checked.instruction };
  }

  /** Every `reflectEvery` iterations (not the first): one model call without tools, shown as a reflection and read by the model next. */
  async reflectIfDue(): Promise<void> {
    const every = this.settings.reflectEvery;
    const iteration = this.state.iteration;
    if (every === 0 || iteration <= 1 || iteration - this.state.lastReflectionAt < every) return;
    this.state.markReflection(iteration);
    const messages = JSON.parse(JSON.stringify(this.state.messages)) as typeof this.state.messages;
    const last = messages[messages.length - 1];
    const prompt = reflectionPrompt(this.chain.plan, iteration);
    if (last?.role === 'user') last.content.push({ type: 'text', text: prompt });
    else messages.push({ role: 'user', content: [{ type: 'text', text: prompt }] });
    let text = '';
    try {
      const { reply } = await recordedModelCall(this.ctx, {
        candidate: this.candidate(),
        system: this.prompt.system,
        messages,
        // The conversation holds tool calls, so the tools are sent, but none may be called.
        tools: this.prompt.tools,
        toolChoice: 'none',
        maxTokens: Math.min(this.input.model.maxTokens, 1_024),
        note: `reflection at iteration ${iteration}`,
        purpose: 'reflection',
      });
      text = replyText(reply).trim();
    } catch (err) {
      if (!(err instanceof ModelCallFailed)) throw err;
    }
    if (!text) return;
    this.chain.note('reflection', text, { level: this.input.visibility });
    this.state.appendUserText(`Your reflection at iteration ${iteration}: ${text}`);
  }

  private async replanAfter(plan: Plan, failedTaskId: string): Promise<Plan> {
    let made: { plan?: Plan; attempts: PlanAttempt[] };
    try {
      made = await replan(this.input.task, plan, failedTaskId, this.toolNames, this.settings, this.planner());
    } catch (err) {
      if (!(err instanceof ModelCallFailed)) throw err;
      made = { attempts: [{ reply: '', problems: [err.message] }] };
    }
    if (!made.plan) {
      this.chain.note(
        'plan',
        `Re-planning after ${failedTaskId} failed did not give a valid plan; the current plan stands.`,
        { level: this.input.visibility },
      );
      return plan;
    }
    const { plan: next, choose } = startNext(made.plan);
    this.chain.setPlan(next);
    this.chain.note(
      'plan',
      `Re-planned after ${failedTaskId} failed (version ${next.version}).\n${taskList(next)}`,
      { level: this.input.visibility },
      next,
    );
    this.noteChoice(choose);
    return next;
  }

  /** The planner's model: the run's own, through the recorded (budgeted, visible) model call. */
  private planner(): PlannerModel {
    return {
      ask: async ({ system, prompt, note }) => {
        const { reply } = await recordedModelCall(this.ctx, {
          candidate: this.candidate(),
          system,
          messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
          tools: [],
          toolChoice: 'none',
          maxTokens: this.input.model.maxTokens,
          note,
          purpose: 'plan',
        });
        return replyText(reply);
      },
    };
  }

  private candidate() {
    const { provider, model, maxTokens, price } = this.input.model;
    return { provider, model, maxTokens, price };
  }
}

/** A reused plan starts over: every task pending, nothing reported, none of the storing run's learnings. */
function freshCopy({ learnings: _l, ...plan }: Plan): Plan {
  return {
    ...plan,
    source: 'cached',
    version: 1,
    tasks: plan.tasks.map(({ note: _n, result: _r, error: _e, ...t }) => ({ ...t, status: 'pending' as const })),
  };
}

function describeOrigin(plan: Plan, attempts: readonly PlanAttempt[]): string {
  const problems = attempts.flatMap((a) => a.problems);
  switch (plan.source) {
    case 'model':
      return `Plan: ${plan.tasks.length} tasks.`;
    case 'repaired':
      return `Plan: ${plan.tasks.length} tasks, after one repair (the first plan had: ${problems.join('; ')}).`;
    case 'template':
      return `Plan from the ${plan.template} template, as the planner's plans were invalid (${problems.join('; ')}).`;
    case 'single_task':
      return `Plan: the goal as a single task, as the planner's plans were invalid (${problems.join('; ')}).`;
    case 'workflow':
      return `Plan: the ${plan.workflow ?? 'workflow'} workflow's ${plan.tasks.length} steps, as written.`;
    case 'cached':
      return `Plan: ${plan.tasks.length} tasks, reused from a run with a similar goal${alikeNote(plan.reusedFrom)}.`;
  }
}

/** ", 86% alike" for a plan stored for another goal (not the same goal key), else nothing. */
function alikeNote(hit: CacheHit | undefined): string {
  return hit?.similarity === undefined ? '' : `, ${alikeText(hit.similarity)}`;
}

function taskList(plan: Plan): string {
  return plan.tasks
    .map((t) => `${t.id}. ${t.description}${t.dependencies.length ? ` (after ${t.dependencies.join(', ')})` : ''}`)
    .join('\n');
}
