/**
 * The ReAct loop: Thought → Action → Observation until an answer or a stop condition.
 *
 * Every ending of a run, and where it fires (DESIGN.md's `terminationReason`):
 * | reason           | where                                                                                   |
 * |------------------|-----------------------------------------------------------------------------------------|
 * | `success`        | act: `final_answer` (finish tool or a text reply); act: `phrase` (a success phrase)     |
 * | `failure`        | act: `give_up`; act: `refused` (the model refused); act: `phrase` (a failure phrase)    |
 * | `max_iterations` | run: the iteration limit, checked before each iteration, then summarise                 |
 * | `stalled`        | act: `run_tools` or `format_error` when the stall detector says stalled and nobody lets it go on |
 * | `token_budget`   | run: catch of BudgetExhausted (model/budget.ts, model/model-turn.ts, tenant-quota/tenant-tokens.ts) |
 * | `cost_budget`    | run: catch of BudgetExhausted (model/budget.ts, model/model-turn.ts)                    |
 * | `custom`         | run: a `stopWhen` predicate holds after an iteration, then summarise                    |
 * | `cancelled`      | run: `cancel` signal seen between iterations, then summarise; interrupted(): the grace period ended or Temporal cancelled (run/interrupts.ts); run/run-agent.ts: cancelled before the loop began |
 * | `timeout`        | interrupted(): the run's deadline (run/interrupts.ts)                                   |
 * | `error`          | run: catch of ModelCallFailed; act: `cut_reply`; run/preflight.ts: a refused model or tenant slot; run/run-agent.ts: anything else thrown |
 * Continue-as-new is not an ending: ContinueAsNewRequested leaves the loop for runAgent to hand over.
 */
import type { ModelReply, TerminationReason, ToolSpec, ToolUseBlock } from '../../shared';
import type { ChainBuilder } from '../core/chain-builder';
import { controlToolNames, judgeAnswer, supportingObservations } from '../core/grounding';
import { injectedToolNames } from '../core/injected-tools';
import { BudgetExhausted, ContinueAsNewRequested, isLoopSignal, ModelCallFailed } from '../core/loop-signals';
import { replyText, type Observation } from '../core/model-exchange';
import { MAX_FAILED_CALL_ERROR_CHARS } from '../../shared/continued-state';
import { checkThought, thoughtKey } from '../reasoning/thought-check';
import { recordControlCall, refuseCall } from '../core/record-calls';
import type { RunContext } from '../core/run-context';
import { cutText } from '../core/read-message';
import { callKey, similarCallKey } from '../core/stable-hash';
import {
  afterFormatError,
  afterReadableReply,
  afterToolCalls,
  cycleLength,
  freshStallState,
  type RepeatKind,
  type StallVerdict,
} from '../core/stall-detector';
import { abandonRunningChildren } from '../delegation/sub-agent-call';
import type { SubAgentTree } from '../delegation/sub-agent-tree';
import { modelTurn } from '../model/model-turn';
import { waitForAnswer } from '../people/ask-person';
import type { People } from '../people/people';
import { PlanKeeper } from '../planning/plan-keeper';
import { closeOpenCalls } from '../tools/close-open-calls';
import { withAlternatives } from '../tools/alternatives';
import { runToolTurn, type ToolTurnParts } from '../tools/tool-turn';
import { createToolCallValidator } from '../tools/validate-tool-call';
import { earlyStop, isEarlyStop, type EarlyStop, type NextStep } from './decide-next-step';
import { stopInstruction } from './prompt';
import { firstHolding, type LoopView, type StopPredicate } from './stop-conditions';
import { loopTurn, type StrategySlot } from './loop-turn';
import { structuredFinal } from './structured-final';

/** How a run ended: its termination reason, its answer (partial or not) and, for `error`, what went wrong. */
export interface RunOutcome {
  reason: TerminationReason;
  answer: string;
  error?: string;
  /** The answer's confidence, 0–1, when the model gave one. */
  confidence?: number;
  /** The answer's value, checked against the run's output schema. */
  output?: unknown;
}

/** What the loop uses besides the run context; runAgent builds it once, after the preflight. */
export interface LoopParts extends StrategySlot {
  tools: readonly ToolSpec[];
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
          parts.tools.map((t) => t.name),
          async (callId, question) => (await waitForAnswer(ctx, parts.people.desk, callId, question)).answer,
        )
      : undefined;
    this.toolTurn = {
      validate: createToolCallValidator(
        parts.tools,
        injectedToolNames(input).map((t) => t.name),
      ),
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
      await this.planKeeper?.start();
      for (;;) {
        if (this.state.cancelRequested !== undefined)
          return await this.summarise('cancelled', `The run was cancelled (${this.state.cancelRequested}).`);
        if (this.state.iteration >= this.input.maxIterations) {
          return await this.summarise(
            'max_iterations',
            `You have reached the limit of ${this.input.maxIterations} iterations.`,
          );
        }
        if (this.parts.shouldContinueAsNew()) throw new ContinueAsNewRequested();
        this.chain.iteration = this.state.startIteration();
        this.parts.people.inbox.deliver(this.chain, this.state);
        this.fitContext();
        // Without a plan there is nothing to await (one promise fewer an iteration).
        if (this.planKeeper) await this.planKeeper.reflectIfDue();
        const reply = await loopTurn(this.ctx, this.parts);
        this.recordExtendedThinking(reply);
        const { strategy } = this.parts;
        const next = earlyStop(reply, this.input, strategy.readsCutReplies) ?? strategy.decide(reply);
        const outcome = await this.act(next, reply);
        if (outcome) return outcome;
        const custom = firstHolding(this.parts.stopWhen, this.view(reply));
        if (custom) return await this.summarise('custom', `The stop condition ${custom} holds.`);
      }
    } catch (err) {
      if (err instanceof ModelCallFailed) return { reason: 'error', answer: '', error: err.message };
      if (err instanceof BudgetExhausted) return this.end(err.reason, this.summaryWithoutModel(err.message));
      throw err;
    }
  }

  /**
   * Ends a run cut short by cancellation or its timeout: calls still open in the chain get a
   * result saying what happened (a model call was cancelled; a tool never ran or may have run),
   * and the summary is written without a model.
   */
  interrupted(reason: 'cancelled' | 'timeout', why: string): RunOutcome {
    abandonRunningChildren(this.parts.tree, this.state);
    closeOpenCalls(this.chain, why);
    return this.end(reason, this.summaryWithoutModel(why));
  }

  /** Keeps the conversation under `maxContextChars`; a visible step, while the chain keeps everything. */
  private fitContext(): void {
    const before = this.state.contextChars();
    const elided = this.state.compactToFit(this.input.maxContextChars, before);
    if (elided === 0) return;
    this.chain.thinking(
      `Context compacted: removed ${elided} older tool results or whole turns from the conversation sent to the model (${before} → ${this.state.contextChars()} characters, limit ${this.input.maxContextChars}). The chain keeps them in full.`,
      { level: 'full' },
    );
  }

  /** Extended thinking is shown as thinking steps; the blocks themselves stay in the conversation. */
  private recordExtendedThinking(reply: ModelReply): void {
    for (const block of reply.content) {
      if (block.type === 'thinking' && block.thinking.trim())
        this.chain.thinking(block.thinking.trim(), { level: this.input.visibility });
      if (block.type === 'redacted_thinking')
        this.chain.thinking('(thinking redacted by the provider)', { level: this.input.visibility });
    }
  }

  /** Carries out one decision; returns an outcome when the run is over. */
  private async act(decided: NextStep, reply: ModelReply): Promise<RunOutcome | undefined> {
    if (isEarlyStop(decided)) return this.stopEarly(decided);
    const schema = this.input.outputSchema;
    const next = decided.kind === 'final_answer' && schema ? structuredFinal(decided, schema) : decided;
    if (next.thought)
      this.chain.thinking(next.thought, { level: this.input.visibility }, undefined, next.thoughtConfidence);
    if (next.kind === 'run_tools') {
      const thought = next.thought || extendedThinking(reply);
      const names = next.calls.map((c) => c.name);
      const verdict = checkThought(thought, this.input, names, this.state.stall.lastThoughtKey);
      if (!verdict.ok) return this.refuseForThought(next.calls, verdict.problem);
      this.state.setStall({ ...this.state.stall, lastThoughtKey: thoughtKey(thought) });
      if (!this.input.scratchpad)
        this.state.rewriteLastAssistantMessage((message) => this.parts.strategy.actionOnly(message, next));
    }
    if (next.kind !== 'format_error') this.state.setStall(afterReadableReply(this.state.stall));
    switch (next.kind) {
      case 'final_answer':
        if (this.planKeeper?.checksGoal && !(await this.goalMet(next))) return undefined;
        if (!(await this.answerAccepted(next))) return undefined;
        if (next.via === 'finish_tool') {
          recordControlCall(this.chain, this.input, next.finishCall, { success: true, result: next.answer });
          this.recordNotRun(next.skipped, `"${this.input.finishToolName}" was called in the same turn`);
        }
        return this.end('success', next.answer, next.confidence, next.output);
      case 'give_up':
        recordControlCall(this.chain, this.input, next.call, { success: true, result: next.reason });
        this.recordNotRun(next.skipped, `"${this.input.giveUpToolName}" was called in the same turn`);
        this.synthesise('failure', `The task could not be completed: ${next.reason}`);
        return { reason: 'failure', answer: next.reason };
      case 'run_tools': {
        const { verdict, kind } = this.judgeRepeats(next.calls);
        const what =
          kind === 'cycle'
            ? `it went round the same ${cycleLength(this.state.stall.recentTurns)} turns of calls twice`
            : `it called ${next.calls.map((c) => c.name).join(', ')} with the same arguments ${this.state.stall.sameCallsInRow} times in a row`;
        if (verdict === 'warn') return void this.observeRejected(next.calls, this.repeatWarning(kind, next.calls));
        if (verdict === 'stalled' && !(await this.mayGoOn(what))) {
          // Every tool_use needs its tool_result, also in the summary request.
          this.observeRejected(next.calls, 'Not run: the run stopped because it was stalled.');
          return this.summarise('stalled', 'You kept repeating the same tool calls without progress.');
        }
        this.beforeTools();
        const refused = this.earlierFailures(next.calls);
        const observations = await runToolTurn(this.ctx, this.toolTurn, next.calls, refused);
        this.rememberFailures(next.calls, observations, refused);
        this.afterTools(observations);
        // The observer (planning.observe) reads the action once its results are in the conversation.
        if (this.planKeeper?.observes) await this.planKeeper.observe(next.calls, observations);
        return undefined;
      }
      case 'invalid_finish':
        await this.observe([...next.others, next.finishCall], new Map([[next.finishCall.id, next.problem]]));
        return undefined;
      case 'format_error': {
        this.state.countFormatError();
        const judged = afterFormatError(this.state.stall, this.input.stallThreshold);
        this.state.setStall(judged.state);
        if (
          judged.verdict === 'stalled' &&
          !(await this.mayGoOn(`${this.state.stall.formatErrorsInRow} replies in a row could not be read`))
        ) {
          return this.summarise('stalled', 'Your replies could not be read, several times in a row.');
        }
        const warning =
          judged.verdict === 'warn'
            ? ` This is unreadable reply number ${this.state.stall.formatErrorsInRow} in a row; follow the format exactly or the run will stop.`
            : '';
        this.chain.thinking(`Reply not understood: ${next.message}${warning}`, { level: 'full' });
        this.parts.strategy.unreadable(this.state, next.message + warning);
        return undefined;
      }
      default: {
        const unreachable: never = next;
        return {
          reason: 'error',
          answer: '',
          error: `Unhandled next step ${JSON.stringify(unreachable)} after ${reply.stopReason}`,
        };
      }
    }
  }

  /** A refusal and a cut reply end the run as they are; a phrase ends it with the reply as the answer. None of the reply's calls run. */
  private stopEarly(next: EarlyStop): RunOutcome {
    switch (next.kind) {
      case 'refused':
        return {
          reason: 'failure',
          answer: next.text,
          error: `The model refused to continue${next.text ? `: ${next.text}` : '.'}`,
        };
      case 'cut_reply':
        return { reason: 'error', answer: next.text, error: next.error };
      case 'phrase':
        this.chain.thinking(next.text, { level: this.input.visibility });
        this.recordNotRun(next.calls, `the reply contained the ${next.ending} phrase "${next.phrase}"`);
        return this.end(next.ending, next.text);
    }
  }

  private judgeRepeats(calls: ToolUseBlock[]): { verdict: StallVerdict; kind: RepeatKind } {
    const turnKey = calls.map((c) => similarCallKey(c.name, c.input)).join('|');
    const judged = afterToolCalls(this.state.stall, turnKey, this.input.stallThreshold, this.input.stallWindow);
    this.state.setStall(judged.state);
    return judged;
  }

  private repeatWarning(kind: RepeatKind, calls: readonly ToolUseBlock[]): string {
    if (kind === 'cycle')
      return (
        `Not run: you have gone round the same ${cycleLength(this.state.stall.recentTurns)} turns of calls twice, ` +
        'and the results will not change. Use the earlier results, try something different, or finish.'
      );
    return (
      `Not run: you have made this exact call (${calls.map((c) => c.name).join(', ')} with the same arguments) ${this.state.stall.sameCallsInRow} times in a row, ` +
      'and the result will not change. Use the earlier result, try something different, or finish.'
    );
  }

  /**
   * A turn's calls without a usable thought (requireThought, thoughtValidation): none runs, each
   * gets the problem as its observation, and the turn counts as a format error toward a stall.
   */
  private async refuseForThought(calls: ToolUseBlock[], problem: string): Promise<RunOutcome | undefined> {
    this.state.countFormatError();
    const judged = afterFormatError(this.state.stall, this.input.stallThreshold);
    this.state.setStall(judged.state);
    if (
      judged.verdict === 'stalled' &&
      !(await this.mayGoOn(`${this.state.stall.formatErrorsInRow} replies in a row came without a usable thought`))
    ) {
      this.observeRejected(calls, 'Not run: the run stopped because it was stalled.');
      return this.summarise('stalled', 'Your tool calls came without a usable thought, several times in a row.');
    }
    const warning =
      judged.verdict === 'warn'
        ? ` This is refusal number ${this.state.stall.formatErrorsInRow} in a row; write a thought or the run will stop.`
        : '';
    this.observeRejected(calls, problem + warning);
    return undefined;
  }

  /** Calls identical to one that already failed are not run again: their observation points to that failure. */
  private earlierFailures(calls: readonly ToolUseBlock[]): Map<string, string> {
    const refused = new Map<string, string>();
    for (const call of calls) {
      const failed = this.state.failedCall(callKey(call.name, call.input));
      if (!failed) continue;
      const pointer =
        `Not run: the identical call (${call.name} with the same arguments) already failed at step ${failed.stepNumber}: ${failed.error} ` +
        'Running it again would fail the same way: change the arguments, use another tool, or finish with what you have.';
      const spec = this.parts.tools.find((t) => t.name === call.name);
      refused.set(call.id, spec ? withAlternatives(spec, pointer) : pointer);
    }
    return refused;
  }

  /** Remembers the turn's failed tool calls (not those refused above, nor ones cut short), so a repeat points to them. */
  private rememberFailures(
    calls: readonly ToolUseBlock[],
    observations: readonly Observation[],
    refused: ReadonlyMap<string, string>,
  ): void {
    for (const call of calls) {
      if (refused.has(call.id) || !observations.find((o) => o.callId === call.id)?.isError) continue;
      // Only the worker's tools: an injected tool's refusal (a plan update too early) and a
      // sub-agent's failure depend on the run's state or a model, so the same call may work later.
      const spec = this.parts.tools.find((t) => t.name === call.name);
      if (!spec || spec.type === 'sub_agent') continue;
      const step = this.chain.resultOf(call.id);
      if (!step || step.toolResult.outcome !== undefined) continue;
      this.state.rememberFailure({
        key: callKey(call.name, call.input),
        stepId: step.stepId,
        stepNumber: step.stepNumber,
        error: cutText(step.toolResult.error ?? 'it failed', MAX_FAILED_CALL_ERROR_CHARS),
      });
    }
  }

  /** With `planning.goalCheck`, an answer the check finds short of the goal goes back to the model with what is missing. */
  private async goalMet(next: Extract<NextStep, { kind: 'final_answer' }>): Promise<boolean> {
    if (!this.planKeeper) return true;
    const checked = await this.planKeeper.checkGoal(next.answer);
    if (checked.stands) return true;
    if (next.via === 'finish_tool')
      this.observeRejected([next.finishCall, ...next.skipped], `Not accepted: ${checked.instruction}`);
    else this.state.appendUserText(checked.instruction);
    return false;
  }

  /**
   * With `confirmBelowConfidence`, an answer below it (or without one) waits for a person: they
   * accept it, or send the agent back to work with a note. Nobody answering in time accepts it.
   */
  private async answerAccepted(next: Extract<NextStep, { kind: 'final_answer' }>): Promise<boolean> {
    const threshold = this.input.confirmBelowConfidence;
    if (threshold === undefined || (next.confidence !== undefined && next.confidence >= threshold)) return true;
    const said = next.confidence === undefined ? 'gave no confidence' : `is ${next.confidence} confident`;
    this.chain.setStatus('waiting');
    this.ctx.progress.publish();
    const decision = await this.parts.people.stall.ask(
      `The agent ${said} in its answer (below ${threshold}). Continue working instead of accepting it? Answer: ${cutText(next.answer, 500)}`,
      this.input.stallQuestionTimeoutMs,
      () => this.ctx.progress.publish(),
    );
    this.chain.setStatus('thinking');
    const who = decision?.by ? ` (${decision.by})` : '';
    const note = decision?.note ? `: ${decision.note}` : '';
    if (!decision?.continue) {
      this.chain.thinking(
        decision === undefined
          ? `Nobody confirmed the low-confidence answer in time; it stands (confidence ${next.confidence ?? 'not given'}, threshold ${threshold}).`
          : `A person${who} accepted the low-confidence answer${note}.`,
        { level: 'full' },
      );
      return true;
    }
    this.chain.thinking(`A person${who} sent the answer back${note}.`, { level: 'full' });
    const instruction = `A person did not accept this answer yet and asks you to keep working${note}.`;
    if (next.via === 'finish_tool')
      this.observeRejected([next.finishCall, ...next.skipped], `Not accepted: ${instruction}`);
    else this.state.appendUserText(instruction);
    return false;
  }

  /** On a stall: with `onStall: 'ask'`, a person may let the run go on (the counters restart). */
  private async mayGoOn(what: string): Promise<boolean> {
    this.chain.thinking(`Stalled: ${what}, after being told once.`, { level: 'full' });
    if (this.input.onStall !== 'ask') return false;
    this.chain.setStatus('waiting');
    this.ctx.progress.publish();
    const decision = await this.parts.people.stall.ask(
      `The agent seems stuck: ${what}. Continue?`,
      this.input.stallQuestionTimeoutMs,
      () => this.ctx.progress.publish(),
    );
    this.chain.setStatus('thinking');
    const who = decision?.by ? ` (${decision.by})` : '';
    const note = decision?.note ? `: ${decision.note}` : '';
    this.chain.thinking(
      decision === undefined
        ? 'Nobody answered "continue?" in time; stopping.'
        : `A person${who} chose to ${decision.continue ? 'continue' : 'stop'}${note}.`,
      { level: 'full' },
    );
    if (!decision?.continue) return false;
    this.state.setStall(freshStallState());
    return true;
  }

  /** Runs the turn's calls (approvals and questions included) and hands every result, errors included, back to the model. */
  private async observe(calls: ToolUseBlock[], rejected = new Map<string, string>()): Promise<void> {
    this.beforeTools();
    this.afterTools(await runToolTurn(this.ctx, this.toolTurn, calls, rejected));
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
      const reply = await modelTurn(this.ctx, this.parts.strategy, 'none');
      if (reply.stopReason !== 'refusal') answer = replyText(reply);
    } catch (err) {
      if (!isLoopSignal(err)) throw err;
    }
    return this.end(reason, answer || this.summaryWithoutModel(why));
  }

  /** Written without a model, so a failed summary call still leaves the partial results in view. */
  private summaryWithoutModel(why: string): string {
    // The results an answer could rest on (core/grounding.ts), not the loop's own bookkeeping.
    const supporting = new Set(supportingObservations(this.chain.steps, controlToolNames(this.input)));
    const lines = this.chain.steps.flatMap((s) =>
      s.type === 'tool_result' && supporting.has(s.stepId)
        ? [`- ${JSON.stringify(s.toolResult.result).slice(0, 300)}`]
        : [],
    );
    return [
      `Stopped after ${this.state.iteration} iterations without a final answer. ${why}`,
      'Results gathered so far:',
      ...(lines.length ? lines : ['- (none)']),
    ].join('\n');
  }

  /** The answer becomes the chain's synthesis, and the run's outcome. */
  private end(reason: TerminationReason, answer: string, confidence?: number, output?: unknown): RunOutcome {
    this.synthesise(reason, answer, confidence);
    return {
      reason,
      answer,
      ...(confidence !== undefined ? { confidence } : {}),
      ...(output !== undefined ? { output } : {}),
    };
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

  /** The chain's last step: the answer, with what stands behind it (core/grounding.ts). */
  private synthesise(reason: TerminationReason, answer: string, confidence?: number): void {
    const { grounding, sources } = judgeAnswer(this.chain.steps, reason, controlToolNames(this.input));
    this.chain.synthesis(
      {
        sources,
        conclusion: answer,
        grounding,
        terminationReason: reason,
        ...(confidence !== undefined ? { confidence } : {}),
      },
      { level: this.input.visibility },
    );
  }
}

/** The reply's extended thinking, which counts as a thought (requireThought). */
function extendedThinking(reply: ModelReply): string {
  return reply.content
    .flatMap((b) =>
      b.type === 'thinking' ? [b.thinking] : b.type === 'redacted_thinking' ? ['(redacted thinking)'] : [],
    )
    .join('\n')
    .trim();
}
