/**
 * The ReAct loop: Thought → Action → Observation until an answer or a stop condition.
 *
 * Every ending of a run, and where it fires (DESIGN.md's `terminationReason`):
 * | reason           | where                                                                                   |
 * |------------------|-----------------------------------------------------------------------------------------|
 * | `success`        | act: `final_answer` (finish tool or a text reply); act: `phrase` (a success phrase)     |
 * | `failure`        | act: `give_up`; act: `refused` (the model refused); act: `phrase` (a failure phrase)    |
 * | `max_iterations` | run: the iteration limit, checked before each iteration (`onBudget: 'ask'` pauses first), then summarise |
 * | `stalled`        | act: `run_tools` (runTools, refuseForThought) or `format_error` (unreadable) when the stall guard (guards/stall.ts) says stalled and nobody lets it go on |
 * | `token_budget`   | run: catch of BudgetExhausted (model/budget.ts, model/model-turn.ts, tenant-quota/tenant-tokens.ts); a loop turn's is paused for first with `onBudget: 'ask'` (guards/budget-pause.ts) |
 * | `cost_budget`    | run: catch of BudgetExhausted (model/budget.ts, model/model-turn.ts)                    |
 * | `custom`         | run: a `stopWhen` predicate holds after an iteration, then summarise                    |
 * | `cancelled`      | run: `cancel` signal seen between iterations, then summarise; interrupted(): the grace period ended or Temporal cancelled (run/interrupts.ts); run/run-agent.ts: cancelled before the loop began |
 * | `timeout`        | interrupted(): the run's deadline (run/interrupts.ts)                                   |
 * | `error`          | run: catch of ModelCallFailed; act: `cut_reply`; run/preflight.ts: a refused model or tenant slot; run/run-agent.ts: anything else thrown |
 * Continue-as-new is not an ending: ContinueAsNewRequested leaves the loop for runAgent to hand over.
 */
import type { ModelReply, TerminationReason, ToolUseBlock } from '../../domain';
import type { ModelCallResult } from '../../domain/model/model-call-result';
import type { ChainBuilder } from '../core/chain/chain-builder';
import { BudgetExhausted, ContinueAsNewRequested, isLoopSignal, ModelCallFailed } from '../core/loop-signals';
import { replyText, type Observation } from '../core/model-exchange';
import { awaitedOf, mapStep, settled, stepPromise, type Outcome, type Step } from '../core/pending';
import { recordControlCall, refuseCall } from '../core/chain/record-calls';
import type { RunContext } from '../core/state/run-context';
import { afterReadableReply } from '../core/state/stall-detector';
import { abandonRunningChildren } from '../delegation/sub-agent-call';
import type { SubAgentTree } from '../delegation/sub-agent-tree';
import { modelTurn } from '../model/model-turn';
import { waitForAnswer } from '../people/ask-person';
import type { People } from '../people/people';
import { PlanKeeper } from '../planning/plans/plan-keeper';
import { closeOpenCalls } from '../tools/close-open-calls';
import { runToolTurn, type ToolTurnParts } from '../tools/tool-turn';
import type { RunTools } from '../tools/run-tools';
import { earlyStop, isEarlyStop, type EarlyStop, type NextStep } from './decide-next-step';
import { mayRaise } from './guards/budget-pause';
import { earlierFailures, rememberFailures } from './guards/failed-calls';
import { sentBackBelowConfidence } from './guards/low-confidence';
import { judgeFormatError, judgeRepeats, mayGoOn } from './guards/stall';
import { stopInstruction } from './prompt';
import { fitContext } from './fit-context';
import { firstHolding, type LoopView, type StopPredicate } from './stop-conditions';
import { switchedToText, switchesToText, type StrategySlot } from './loop-turn';
import { endBlocked, endRun, endWithoutModel, synthesise, type RunOutcome } from './run-outcome';
import { checksOutput, guardrailsAt } from '../guardrails/check-point';
import { checkAnswer, checkTask, checkToolResults, type Checked } from '../guardrails/guardrail-stages';
import { structuredFinal } from './structured-final';
import { recordExtendedThinking, thoughtProblem } from './thoughts';

export type { RunOutcome } from './run-outcome';

type FinalAnswer = Extract<NextStep, { kind: 'final_answer' }>;

/** What the loop uses besides the run context; runAgent builds it once, after the preflight. */
export interface LoopParts extends StrategySlot {
  /** The run's tools: complete once the first model call described the registered ones (run-tools.ts). */
  tools: RunTools;
  /** Approvals, questions, steering and "continue?": where people reach into the run. */
  people: People;
  /** The child runs below this one, and the approvals they wait for. */
  tree: SubAgentTree;
  stopWhen: readonly StopPredicate[];
  /** Checked between iterations: hand over to a fresh run now? */
  shouldContinueAsNew(): boolean;
}

/** One ReAct run: Thought → Action → Observation until an answer or a stop condition. */
export class ReactLoop {
  private readonly toolTurn: ToolTurnParts;
  private readonly planKeeper: PlanKeeper | undefined;

  constructor(
    private readonly ctx: RunContext,
    private readonly parts: LoopParts,
  ) {
    const { input } = ctx;
    this.planKeeper = input.planning
      ? new PlanKeeper(
          ctx,
          input.planning,
          parts.strategy,
          parts.tools.specs.map((t) => t.name),
          async (callId, question) => (await waitForAnswer(ctx, parts.people.desk, callId, question)).answer,
        )
      : undefined;
    this.toolTurn = {
      validate: (call) => parts.tools.validate(call),
      gate: parts.people.gate,
      desk: parts.people.desk,
      tree: parts.tree,
      planKeeper: this.planKeeper,
    };
  }

  private get input() {
    return this.ctx.input;
  }
  private get chain(): ChainBuilder {
    return this.ctx.chain;
  }
  private get state() {
    return this.ctx.state;
  }

  async run(): Promise<RunOutcome> {
    try {
      // The input guardrails read the task before any model does (a plan's included); without
      // any, nothing is awaited (each await is a promise the SDK takes a stack trace for).
      if (!this.input.continued && this.state.modelCalls === 0 && guardrailsAt(this.input, 'input').length) {
        const task = await checkTask(this.ctx, this.parts.people.desk);
        if (task.kind === 'blocked') return endBlocked(this.ctx, 'custom', `The task was not run: ${task.why}.`);
      }
      // Awaited only with a plan: awaiting undefined is a promise the SDK traces too.
      if (this.planKeeper) await this.planKeeper.start();
      for (;;) {
        if (this.state.cancelRequested !== undefined)
          return await this.summarise('cancelled', `The run was cancelled (${this.state.cancelRequested}).`);
        if (this.state.iteration >= this.input.maxIterations && !(await this.mayRaiseIterations())) {
          return await this.summarise(
            'max_iterations',
            `You have reached the limit of ${this.input.maxIterations} iterations.`,
          );
        }
        if (this.parts.shouldContinueAsNew()) throw new ContinueAsNewRequested();
        this.chain.iteration = this.state.startIteration();
        this.parts.people.inbox.deliver(this.chain, this.state);
        // Only a compaction that summarises awaits (one promise fewer an iteration otherwise).
        const summarising = fitContext(this.ctx);
        if (summarising) await summarising;
        // Without a plan there is nothing to await (one promise fewer an iteration).
        if (this.planKeeper) await this.planKeeper.reflectIfDue();
        // The turn's model activity awaited here and nowhere else, a retry only after a failure:
        // every async layer, `then` and await is a promise the SDK takes a stack trace for, on
        // each task and replay (pending.ts).
        let reply: ModelCallResult;
        try {
          const turn = modelTurn(this.ctx, this.parts.strategy, 'auto');
          let outcome: Outcome;
          try {
            outcome = { value: await awaitedOf(turn) };
          } catch (failure) {
            outcome = { failure };
          }
          const later = settled(turn, outcome);
          reply = later instanceof Promise ? await later : later;
        } catch (err) {
          reply = await this.turnAgain(err);
        }
        // The first reply brings the registered tools its call described (run-tools.ts), and its
        // worker keeps the system prompt with every tool: the next call names them.
        if (reply.describedTools) {
          this.parts.tools.described(reply.describedTools);
          const { system, tools } = this.parts.strategy;
          this.ctx.conversations.describedByWorker({ system, tools });
        }
        const { strategy } = this.parts;
        const next = earlyStop(reply, this.input, strategy.readsCutReplies) ?? strategy.decide(reply);
        // A reply that may end the run keeps its thinking out of the chain while the output guardrails check it.
        if (!this.heldForOutput(next)) recordExtendedThinking(this.ctx, reply);
        // The turn's tool activity, likewise, awaited here alone.
        const acted = this.act(next, reply);
        let settledAs: Outcome;
        try {
          settledAs = { value: await awaitedOf(acted) };
        } catch (failure) {
          settledAs = { failure };
        }
        const later = settled(acted, settledAs);
        const outcome = later instanceof Promise ? await later : later;
        if (outcome) return outcome;
        const custom = firstHolding(this.parts.stopWhen, this.view(reply));
        if (custom) return await this.summarise('custom', `The stop condition ${custom} holds.`);
      }
    } catch (err) {
      if (err instanceof ModelCallFailed) return { reason: 'error', answer: '', error: err.message };
      if (err instanceof BudgetExhausted) return endWithoutModel(this.ctx, err.reason, err.message);
      throw err;
    }
  }

  /**
   * The iteration's model turn after it failed with `first`, asked again while a failure allows:
   * a model without tool calling is spoken to in text ReAct (loop-turn.ts); a budget the turn
   * cannot afford (nothing was called, or a reply cut by the budget was dropped) pauses the run
   * with `onBudget: 'ask'`, and after a raise the same turn is tried again, so the iteration counts
   * once. Any other failure, or no raise, is thrown (BudgetExhausted ends the run).
   */
  private async turnAgain(first: unknown): Promise<ModelCallResult> {
    for (let err = first; ;) {
      // Text ReAct renders the tools in its prompt: the ones the failed call was to describe are described first.
      if (switchesToText(this.parts, err)) await this.parts.tools.describeNow();
      if (!switchedToText(this.ctx, this.parts, err)) {
        if (!(err instanceof BudgetExhausted) || err.tenant || this.input.onBudget !== 'ask') throw err;
        if (!(await mayRaise(this.ctx, this.parts.people.budget, err.reason, err.message))) throw err;
      }
      try {
        return await stepPromise(modelTurn(this.ctx, this.parts.strategy, 'auto'));
      } catch (next) {
        err = next;
      }
    }
  }

  /** At the iteration limit, with `onBudget: 'ask'`: true once a person raised it, so the loop goes on. */
  private async mayRaiseIterations(): Promise<boolean> {
    const { maxIterations } = this.input;
    const message = `All ${maxIterations} iterations are spent.`;
    const raised = await mayRaise(this.ctx, this.parts.people.budget, 'max_iterations', message);
    return raised && this.state.iteration < this.input.maxIterations;
  }

  /**
   * Ends a run cut short by cancellation or its timeout: calls still open in the chain get a
   * result saying what happened (a model call was cancelled; a tool never ran or may have run),
   * and the summary is written without a model.
   */
  interrupted(reason: 'cancelled' | 'timeout', why: string): RunOutcome {
    abandonRunningChildren(this.parts.tree, this.state);
    closeOpenCalls(this.chain, why);
    return endWithoutModel(this.ctx, reason, why);
  }

  /**
   * Carries out one decision; returns an outcome when the run is over. Not async itself: the
   * caller awaits the promise of the step that runs (one promise fewer each iteration).
   */
  private act(decided: NextStep, reply: ModelReply): Step<RunOutcome | undefined> {
    if (isEarlyStop(decided)) return this.stopEarly(decided);
    const schema = this.input.outputSchema;
    const next = decided.kind === 'final_answer' && schema ? structuredFinal(decided, schema) : decided;
    if (next.thought && !this.heldForOutput(next))
      this.chain.thinking(next.thought, { level: this.input.visibility }, undefined, next.thoughtConfidence);
    if (next.kind === 'run_tools') {
      const problem = thoughtProblem(this.ctx, next.thought, next.calls, reply);
      if (problem !== undefined) return this.refuseForThought(next.calls, problem);
      if (!this.input.scratchpad)
        this.state.rewriteLastAssistantMessage((message) => this.parts.strategy.actionOnly(message, next));
    }
    if (next.kind !== 'format_error') this.state.setStall(afterReadableReply(this.state.stall));
    switch (next.kind) {
      case 'final_answer':
        return this.finish(next);
      case 'give_up':
        return this.giveUp(next);
      case 'run_tools':
        return this.runTools(next.calls);
      case 'invalid_finish':
        return this.observe([...next.others, next.finishCall], new Map([[next.finishCall.id, next.problem]])).then(
          () => undefined,
        );
      case 'format_error':
        return this.unreadable(next.message);
      default: {
        const unreachable: never = next;
        return Promise.resolve({
          reason: 'error',
          answer: '',
          error: `Unhandled next step ${JSON.stringify(unreachable)} after ${reply.stopReason}`,
        });
      }
    }
  }

  /** The model gave up: its reason, as the output guardrails leave it, is the answer of a failed run. */
  private async giveUp(next: Extract<NextStep, { kind: 'give_up' }>): Promise<RunOutcome> {
    const checked = await this.checkedAnswer(next.reason);
    if (checked.kind === 'blocked') {
      recordControlCall(this.chain, this.input, { ...next.call, input: {} }, { success: false, error: checked.why });
      this.recordNotRun(next.skipped, `"${this.input.giveUpToolName}" was called in the same turn`);
      return endBlocked(this.ctx, 'custom', `The answer was withheld: ${checked.why}.`);
    }
    const reason = checked.text;
    const call = checked.redacted ? { ...next.call, input: { reason } } : next.call;
    recordControlCall(this.chain, this.input, call, { success: true, result: reason });
    this.recordNotRun(next.skipped, `"${this.input.giveUpToolName}" was called in the same turn`);
    const judging = synthesise(this.ctx, 'failure', `The task could not be completed: ${reason}`);
    if (judging) await judging;
    return { reason: 'failure', answer: reason };
  }

  /** A final answer ends the run with success, unless the goal check or a person sends it back. */
  private async finish(next: FinalAnswer): Promise<RunOutcome | undefined> {
    // Only what may send the answer back or check it is awaited (each await is a traced promise).
    const instruction = this.maySendBack() ? await this.sentBack(next) : undefined;
    if (instruction !== undefined) return void this.sendBack(next, instruction);
    const checking = this.checkedAnswer(next.answer);
    const checked = 'kind' in checking ? checking : await checking;
    if (checked.kind === 'blocked') {
      if (next.via === 'finish_tool') {
        // The finish call is shown without its arguments: they hold the answer.
        recordControlCall(
          this.chain,
          this.input,
          { ...next.finishCall, input: {} },
          { success: false, error: checked.why },
        );
        this.recordNotRun(next.skipped, `"${this.input.finishToolName}" was called in the same turn`);
      }
      return endBlocked(this.ctx, 'custom', `The answer was withheld: ${checked.why}.`);
    }
    const answer = checked.text;
    if (next.via === 'finish_tool') {
      const call = checked.redacted ? { ...next.finishCall, input: { result: answer } } : next.finishCall;
      recordControlCall(this.chain, this.input, call, { success: true, result: answer });
      this.recordNotRun(next.skipped, `"${this.input.finishToolName}" was called in the same turn`);
    }
    // A structured output redacted as text no longer matches it: only the text stands.
    return endRun(this.ctx, 'success', answer, next.confidence, checked.redacted ? undefined : next.output);
  }

  /**
   * The turn's tool calls run, unless they repeat themselves toward a stall; a call that failed
   * before is not run again. Not async itself: the common turn is one promise (see toolTurnOf).
   */
  private runTools(calls: ToolUseBlock[]): Step<RunOutcome | undefined> {
    const { verdict, warning, what } = judgeRepeats(this.ctx, calls);
    if (verdict === 'warn') return Promise.resolve(void this.observeRejected(calls, warning));
    if (verdict === 'stalled') return this.runToolsIfAllowed(calls, what);
    return this.toolTurnOf(calls);
  }

  /** A turn toward a stall: its calls run only when a person lets the run go on. */
  private async runToolsIfAllowed(calls: ToolUseBlock[], what: string): Promise<RunOutcome | undefined> {
    if (await this.mayGoOn(what)) return stepPromise(this.toolTurnOf(calls));
    // Every tool_use needs its tool_result, also in the summary request.
    this.observeRejected(calls, 'Not run: the run stopped because it was stalled.');
    return this.summarise('stalled', 'You kept repeating the same tool calls without progress.');
  }

  /**
   * The turn's calls, then their results in the conversation: mapped onto the turn's step
   * (pending.ts), not an async layer and its await: each is a promise the SDK takes a stack trace for.
   */
  private toolTurnOf(calls: ToolUseBlock[]): Step<RunOutcome | undefined> {
    this.beforeTools();
    const refused = earlierFailures(this.ctx, this.parts.tools.specs, calls);
    return mapStep(this.checkedResults(calls, runToolTurn(this.ctx, this.toolTurn, calls, refused)), (observations) => {
      rememberFailures(this.ctx, this.parts.tools.specs, calls, observations, refused);
      this.afterTools(observations);
      // The observer (planning.observe) reads the action once its results are in the conversation.
      return this.planKeeper?.observes ? this.planKeeper.observe(calls, observations).then(() => undefined) : undefined;
    });
  }

  /** A reply the strategy could not read goes back to the model with what was wrong; in a row, toward a stall. */
  private async unreadable(message: string): Promise<RunOutcome | undefined> {
    const { verdict, inRow } = judgeFormatError(this.ctx);
    if (verdict === 'stalled' && !(await this.mayGoOn(`${inRow} replies in a row could not be read`)))
      return this.summarise('stalled', 'Your replies could not be read, several times in a row.');
    const warning =
      verdict === 'warn'
        ? ` This is unreadable reply number ${inRow} in a row; follow the format exactly or the run will stop.`
        : '';
    this.chain.thinking(`Reply not understood: ${message}${warning}`, { level: 'full' });
    this.parts.strategy.unreadable(this.state, message + warning);
    return undefined;
  }

  /** A refusal and a cut reply end the run as they are; a phrase ends it with the reply as the answer. None of the reply's calls run. */
  private async stopEarly(next: EarlyStop): Promise<RunOutcome> {
    // The model's text is the answer here too: the output guardrails read it first.
    const checked = await this.checkedAnswer(next.text);
    if (checked.kind === 'blocked') {
      if (next.kind === 'phrase')
        this.recordNotRun(next.calls, `the reply contained the ${next.ending} phrase "${next.phrase}"`);
      return endBlocked(this.ctx, 'custom', `The answer was withheld: ${checked.why}.`);
    }
    const text = checked.text;
    switch (next.kind) {
      case 'refused':
        return {
          reason: 'failure',
          answer: text,
          error: `The model refused to continue${text ? `: ${text}` : '.'}`,
        };
      case 'cut_reply':
        return { reason: 'error', answer: text, error: next.error };
      case 'phrase':
        if (!checksOutput(this.input)) this.chain.thinking(text, { level: this.input.visibility });
        this.recordNotRun(next.calls, `the reply contained the ${next.ending} phrase "${next.phrase}"`);
        return endRun(this.ctx, next.ending, text);
    }
  }

  /** The answer as the output guardrails leave it; without any, as it is (no activity, nothing recorded). */
  private checkedAnswer(answer: string): Checked | Promise<Checked> {
    if (!answer || !checksOutput(this.input)) return { kind: 'go_on', text: answer, redacted: false };
    return checkAnswer(this.ctx, this.parts.people.desk, answer);
  }

  /** A reply that may end the run, in a run whose answer is checked: its texts wait for the check. */
  private heldForOutput(next: NextStep): boolean {
    if (!checksOutput(this.input)) return false;
    return next.kind !== 'run_tools' && next.kind !== 'format_error' && next.kind !== 'invalid_finish';
  }

  /**
   * A turn's observations as the tool_result guardrails leave them; without any, the turn's own
   * step, so the caller's one await is the only one (each is a promise the SDK traces).
   */
  private checkedResults(calls: readonly ToolUseBlock[], turn: Step<Observation[]>): Step<Observation[]> {
    if (!this.input.guardrailSpecs?.some((g) => g.stage === 'tool_result')) return turn;
    const names = new Map(calls.map((c) => [c.id, c.name]));
    return mapStep(turn, (observations) => checkToolResults(this.ctx, this.parts.people.desk, observations, names));
  }

  /**
   * A turn's calls without a usable thought (requireThought, thoughtValidation): none runs, each
   * gets the problem as its observation, and the turn counts as a format error toward a stall.
   */
  private async refuseForThought(calls: ToolUseBlock[], problem: string): Promise<RunOutcome | undefined> {
    const { verdict, inRow } = judgeFormatError(this.ctx);
    if (verdict === 'stalled' && !(await this.mayGoOn(`${inRow} replies in a row came without a usable thought`))) {
      this.observeRejected(calls, 'Not run: the run stopped because it was stalled.');
      return this.summarise('stalled', 'Your tool calls came without a usable thought, several times in a row.');
    }
    const warning =
      verdict === 'warn' ? ` This is refusal number ${inRow} in a row; write a thought or the run will stop.` : '';
    this.observeRejected(calls, problem + warning);
    return undefined;
  }

  /**
   * Why a final answer goes back to the model, or undefined when it stands: with
   * `planning.goalCheck`, what the goal still misses; then, with `confirmBelowConfidence`, a
   * person's note on an answer below it.
   */
  /** Whether a goal check or a person may send an answer back (sentBack). */
  private maySendBack(): boolean {
    return this.planKeeper?.checksGoal === true || this.input.confirmBelowConfidence !== undefined;
  }

  private async sentBack(next: FinalAnswer): Promise<string | undefined> {
    if (this.planKeeper?.checksGoal) {
      const checked = await this.planKeeper.checkGoal(next.answer);
      if (!checked.stands) return checked.instruction;
    }
    return sentBackBelowConfidence(this.ctx, this.parts.people.stall, next);
  }

  /** The instruction reaches the model as the finish call's observation, or as a user message after a text reply. */
  private sendBack(next: FinalAnswer, instruction: string): void {
    if (next.via === 'finish_tool')
      this.observeRejected([next.finishCall, ...next.skipped], `Not accepted: ${instruction}`);
    else this.state.appendUserText(instruction);
  }

  private mayGoOn(what: string): Promise<boolean> {
    return mayGoOn(this.ctx, this.parts.people.stall, what);
  }

  /** Runs the turn's calls (approvals and questions included) and hands every result, errors included, back to the model. */
  private async observe(calls: ToolUseBlock[], rejected = new Map<string, string>()): Promise<void> {
    this.beforeTools();
    this.afterTools(
      await stepPromise(this.checkedResults(calls, runToolTurn(this.ctx, this.toolTurn, calls, rejected))),
    );
  }

  private beforeTools(): void {
    this.chain.setStatus('tool_calling');
  }

  private afterTools(observations: Observation[]): void {
    this.state.addMessage(this.parts.strategy.observe(observations));
    this.chain.setStatus('thinking');
    this.ctx.progress.publish();
  }

  private observeRejected(calls: ToolUseBlock[], observation: string): void {
    this.state.addMessage(
      this.parts.strategy.observe(calls.map((call) => refuseCall(this.chain, this.input, call, observation))),
    );
    this.ctx.progress.publish();
  }

  /**
   * The last word when a stop condition ends the run: one model call without tools, asked to
   * summarise the progress and the partial results (docs/concepts.md, "How a run ends"). A
   * refusal or a failed call leaves the summary written without a model.
   */
  private async summarise(reason: TerminationReason, why: string): Promise<RunOutcome> {
    this.state.appendUserText(stopInstruction(why));
    let answer = '';
    try {
      const reply = await stepPromise(modelTurn(this.ctx, this.parts.strategy, 'none'));
      if (reply.stopReason !== 'refusal') answer = replyText(reply);
    } catch (err) {
      if (!isLoopSignal(err)) throw err;
    }
    if (!answer) return endWithoutModel(this.ctx, reason, why);
    const checked = await this.checkedAnswer(answer);
    if (checked.kind === 'blocked') return endBlocked(this.ctx, 'custom', `The answer was withheld: ${checked.why}.`);
    return endRun(this.ctx, reason, checked.text);
  }

  private view(reply: ModelReply): LoopView {
    return {
      iteration: this.state.iteration,
      steps: this.chain.steps,
      stepCount: this.chain.stepCount,
      usage: this.state.usage,
      costUsd: this.state.costUsd,
      lastToolCalls: reply.content.flatMap((b) =>
        b.type === 'tool_use' ? [{ name: b.name, arguments: b.input }] : [],
      ),
    };
  }

  private recordNotRun(calls: readonly ToolUseBlock[], why: string): void {
    for (const call of calls)
      recordControlCall(this.chain, this.input, call, { success: false, error: `Not run: ${why}.` });
  }
}
