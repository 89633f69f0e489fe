import type { AgentInput, ModelReply, TerminationReason, ToolSpec, ToolUseBlock } from '../../shared';
import { BudgetExhausted } from '../model/budget';
import type { ChainBuilder } from '../core/chain-builder';
import { replyText, type NextStep } from './decide-next-step';
import { ModelCallFailed, modelTurn } from '../model/model-turn';
import { findPhrase } from './phrases';
import { stopInstruction } from './prompt';
import { closeOpenCalls, summaryWithoutModel } from './run-endings';
import type { RunState } from '../core/run-state';
import { callKey } from '../core/stable-hash';
import { afterFormatError, afterReadableReply, afterToolCalls, freshStallState, type StallVerdict } from '../core/stall-detector';
import { ContinueAsNewRequested, type RunHooks, type RunOutcome } from './run-hooks';
import { firstHolding, type LoopView } from './stop-conditions';
import type { Strategy } from './strategies';
import { recordControlCall, refuseCall } from '../core/control-calls';
import { PlanKeeper } from '../planning/plan-keeper';
import { abandonRunningChildren } from '../delegation/sub-agent-call';
import { runToolTurn } from '../tools/tool-turn';
import { createToolCallValidator, type ToolCallCheck } from '../tools/validate-tool-call';

/** One ReAct run: Thought → Action → Observation until an answer or a stop condition. */
export class AgentRun {
  private readonly validate: (call: ToolUseBlock) => ToolCallCheck;
  private readonly plans: PlanKeeper | undefined;

  constructor(
    private readonly input: AgentInput,
    tools: readonly ToolSpec[],
    private readonly strategy: Strategy,
    readonly chain: ChainBuilder,
    readonly state: RunState,
    private readonly workflowId: string,
    private readonly hooks: RunHooks,
  ) {
    this.validate = createToolCallValidator(tools, [
      input.finishToolName,
      input.giveUpToolName,
      ...(input.allowQuestions ? [input.questionToolName] : []),
      ...(input.planning ? [input.planning.updateToolName] : []),
    ]);
    this.plans = input.planning ? new PlanKeeper(input, input.planning, chain, state, strategy, tools.map((t) => t.name)) : undefined;
  }

  async run(): Promise<RunOutcome> {
    try {
      await this.plans?.start();
      for (;;) {
        if (this.state.cancelRequested !== undefined) return await this.summarise('cancelled', `The run was cancelled (${this.state.cancelRequested}).`);
        if (this.state.iteration >= this.input.maxIterations) {
          return await this.summarise('max_iterations', `You have reached the limit of ${this.input.maxIterations} iterations.`);
        }
        if (this.hooks.shouldContinueAsNew()) throw new ContinueAsNewRequested();
        this.state.iteration += 1;
        this.state.iterationsThisRun += 1;
        this.chain.iteration = this.state.iteration;
        this.hooks.people.inbox.deliver(this.chain, this.state);
        this.fitContext();
        await this.plans?.reflectIfDue();
        const reply = await this.callModel('auto');
        this.recordExtendedThinking(reply);
        const outcome = this.unusable(reply) ?? this.phraseStop(reply) ?? (await this.act(this.strategy.decide(reply), reply));
        if (outcome) return outcome;
        const custom = firstHolding(this.hooks.stopWhen, this.view(reply));
        if (custom) return await this.summarise('custom', `The stop condition ${custom} holds.`);
      }
    } catch (err) {
      if (err instanceof ModelCallFailed) return { reason: 'error', answer: '', error: err.message };
      if (err instanceof BudgetExhausted) return this.endWithoutModel(err.reason, err.message);
      throw err;
    }
  }

  /**
   * Ends a run cut short by cancellation or its timeout: calls still open in the chain get a
   * result saying what happened (a model call was cancelled; a tool may or may not have run),
   * and the summary is written without a model.
   */
  interrupted(reason: 'cancelled' | 'timeout', why: string): RunOutcome {
    abandonRunningChildren(this.hooks.tree, this.state);
    closeOpenCalls(this.chain, why);
    return this.endWithoutModel(reason, why);
  }

  private callModel(toolChoice: 'auto' | 'none'): Promise<ModelReply> {
    return modelTurn(this.input, this.strategy, this.state, this.chain, toolChoice, () => this.hooks.onProgress('all'));
  }

  /** Keeps the conversation under `maxContextChars`; a visible step, while the chain keeps everything. */
  private fitContext(): void {
    const before = this.state.contextChars();
    const elided = this.state.compactToFit(this.input.maxContextChars);
    if (elided === 0) return;
    this.chain.thinking(
      `Context compacted: removed ${elided} older tool results or whole turns from the conversation sent to the model (${before} → ${this.state.contextChars()} characters, limit ${this.input.maxContextChars}). The chain keeps them in full.`,
      { level: 'full' },
    );
  }

  /** Extended thinking is shown as thinking steps; the blocks themselves stay in the conversation. */
  private recordExtendedThinking(reply: ModelReply): void {
    for (const block of reply.content) {
      if (block.type === 'thinking' && block.thinking.trim()) this.chain.thinking(block.thinking.trim(), { level: this.input.visibility });
      if (block.type === 'redacted_thinking') this.chain.thinking('(thinking redacted by the provider)', { level: this.input.visibility });
    }
  }

  /** Replies that must not be acted on even after model-turn did what it could. */
  private unusable(reply: ModelReply): RunOutcome | undefined {
    const text = replyText(reply);
    if (reply.stopReason === 'refusal') {
      return { reason: 'failure', answer: text, error: `The model refused to continue${text ? `: ${text}` : '.'}` };
    }
    if (reply.stopReason === 'max_tokens') {
      // The SDK drops truncated tool input fields silently: never run a call from a cut reply.
      const error = `The reply was still cut at max_tokens after raising the limit; ${reply.content.some((b) => b.type === 'tool_use') ? 'its tool calls were not run' : 'the text is partial'}.`;
      return { reason: 'error', answer: text, error };
    }
    if (reply.stopReason === 'model_context_window_exceeded') {
      return { reason: 'error', answer: text, error: 'The conversation no longer fits the context window, even after eliding older tool results.' };
    }
    return undefined;
  }

  /** Failure phrases end the run as `failure`, success phrases as `success`; calls of that turn are not run. */
  private phraseStop(reply: ModelReply): RunOutcome | undefined {
    const text = replyText(reply);
    const failure = findPhrase(text, this.input.failurePhrases);
    const success = failure ? undefined : findPhrase(text, this.input.successPhrases);
    if (!failure && !success) return undefined;
    this.chain.thinking(text, { level: this.input.visibility });
    for (const call of reply.content.filter((b): b is ToolUseBlock => b.type === 'tool_use')) {
      recordControlCall(this.chain, this.input, call, { success: false, error: `Not run: the reply contained the ${failure ? 'failure' : 'success'} phrase "${failure ?? success}".` });
    }
    this.synthesise(text);
    return { reason: failure ? 'failure' : 'success', answer: text };
  }

  /** Carries out one decision; returns an outcome when the run is over. */
  private async act(next: NextStep, reply: ModelReply): Promise<RunOutcome | undefined> {
    if (next.thought) this.chain.thinking(next.thought, { level: this.input.visibility });
    if (next.kind !== 'format_error') this.state.stall = afterReadableReply(this.state.stall);
    switch (next.kind) {
      case 'final_answer':
        if (next.via === 'finish_tool') {
          recordControlCall(this.chain, this.input, next.finishCall, { success: true, result: next.answer });
          this.recordNotRun(next.skipped, `"${this.input.finishToolName}" was called in the same turn`);
        }
        this.synthesise(next.answer);
        return { reason: 'success', answer: next.answer };
      case 'give_up':
        recordControlCall(this.chain, this.input, next.call, { success: true, result: next.reason });
        this.recordNotRun(next.skipped, `"${this.input.giveUpToolName}" was called in the same turn`);
        this.synthesise(`The task could not be completed: ${next.reason}`);
        return { reason: 'failure', answer: next.reason };
      case 'run_tools': {
        const verdict = this.judgeRepeats(next.calls);
        if (verdict === 'warn') return void this.observeRejected(next.calls, this.repeatWarning(next.calls));
        if (verdict === 'stalled' && !(await this.mayGoOn(`it called ${next.calls.map((c) => c.name).join(', ')} with the same arguments ${this.state.stall.sameCallsInRow} times in a row`))) {
          // Every tool_use needs its tool_result, also in the summary request.
          this.observeRejected(next.calls, 'Not run: the run stopped because it was stalled.');
          return this.summarise('stalled', 'You kept repeating the same tool calls without progress.');
        }
        await this.observe(next.calls);
        return undefined;
      }
      case 'invalid_finish':
        await this.observe([...next.others, next.finishCall], new Map([[next.finishCall.id, next.problem]]));
        return undefined;
      case 'format_error': {
        this.state.formatErrors += 1;
        const judged = afterFormatError(this.state.stall, this.input.stallThreshold);
        this.state.stall = judged.state;
        if (judged.verdict === 'stalled' && !(await this.mayGoOn(`${this.state.stall.formatErrorsInRow} replies in a row could not be read`))) {
          return this.summarise('stalled', 'Your replies could not be read, several times in a row.');
        }
        const warning = judged.verdict === 'warn' ? ` This is unreadable reply number ${this.state.stall.formatErrorsInRow} in a row; follow the format exactly or the run will stop.` : '';
        this.chain.thinking(`Reply not understood: ${next.message}${warning}`, { level: 'full' });
        this.strategy.unreadable(this.state, next.message + warning);
        return undefined;
      }
      default: {
        const unreachable: never = next;
        throw new Error(`Unhandled next step ${JSON.stringify(unreachable)} after ${reply.stopReason}`);
      }
    }
  }

  private judgeRepeats(calls: ToolUseBlock[]): StallVerdict {
    const turnKey = calls.map((c) => callKey(c.name, c.input)).join('|');
    const judged = afterToolCalls(this.state.stall, turnKey, this.input.stallThreshold);
    this.state.stall = judged.state;
    return judged.verdict;
  }

  private repeatWarning(calls: ToolUseBlock[]): string {
    return (
      `Not run: you have made this exact call (${calls.map((c) => c.name).join(', ')} with the same arguments) ${this.state.stall.sameCallsInRow} times in a row, ` +
      'and the result will not change. Use the earlier result, try something different, or finish.'
    );
  }

  /** On a stall: with `onStall: 'ask'`, a person may let the run go on (the counters restart). */
  private async mayGoOn(what: string): Promise<boolean> {
    this.chain.thinking(`Stalled: ${what}, after being told once.`, { level: 'full' });
    if (this.input.onStall !== 'ask') return false;
    this.chain.setStatus('waiting');
    this.hooks.onProgress('all');
    const decision = await this.hooks.askToContinue(`The agent seems stuck: ${what}. Continue?`);
    this.chain.setStatus('thinking');
    const who = decision?.by ? ` (${decision.by})` : '';
    const note = decision?.note ? `: ${decision.note}` : '';
    this.chain.thinking(
      decision === undefined ? 'Nobody answered "continue?" in time; stopping.' : `A person${who} chose to ${decision.continue ? 'continue' : 'stop'}${note}.`,
      { level: 'full' },
    );
    if (!decision?.continue) return false;
    this.state.stall = freshStallState();
    return true;
  }

  /** Runs the turn's calls (approvals and questions included) and hands every result, errors included, back to the model. */
  private async observe(calls: ToolUseBlock[], rejected = new Map<string, string>()): Promise<void> {
    this.chain.setStatus('tool_calling');
    const { gate, desk } = this.hooks.people;
    const ctx = {
      input: this.input,
      state: this.state,
      chain: this.chain,
      workflowId: this.workflowId,
      onStarted: () => this.hooks.onProgress('details'),
      validate: this.validate,
      gate,
      desk,
      publish: () => this.hooks.onProgress('all'),
      tree: this.hooks.tree,
      plans: this.plans,
    };
    const observations = await runToolTurn(ctx, calls, rejected);
    this.state.messages.push(this.strategy.observe(observations));
    this.chain.setStatus('thinking');
    this.hooks.onProgress('all');
  }

  private observeRejected(calls: ToolUseBlock[], observation: string): void {
    this.state.messages.push(this.strategy.observe(calls.map((call) => refuseCall(this.chain, this.input, call, observation))));
    this.hooks.onProgress('all');
  }

  /** The last word when a stop condition ends the run: one model call without tools (seed 001 §2.3.1). */
  private async summarise(reason: TerminationReason, why: string): Promise<RunOutcome> {
    this.state.appendUserText(stopInstruction(why));
    let answer = '';
    try {
      const reply = await this.callModel('none');
      if (reply.stopReason !== 'refusal') answer = replyText(reply);
    } catch (err) {
      if (!(err instanceof ModelCallFailed) && !(err instanceof BudgetExhausted)) throw err;
    }
    if (answer === '') answer = this.fallbackSummary(why);
    this.synthesise(answer);
    return { reason, answer };
  }

  /** Ends without another model call (budgets, timeout, hard cancel). */
  private endWithoutModel(reason: TerminationReason, why: string): RunOutcome {
    const answer = this.fallbackSummary(why);
    this.synthesise(answer);
    return { reason, answer };
  }

  private fallbackSummary(why: string): string {
    return summaryWithoutModel(this.chain, this.state.iteration, why);
  }

  private view(reply: ModelReply): LoopView {
    return {
      iteration: this.state.iteration,
      steps: this.chain.steps,
      usage: this.state.usage,
      costUsd: this.state.costUsd,
      lastToolCalls: reply.content.flatMap((b) => (b.type === 'tool_use' ? [{ name: b.name, arguments: b.input }] : [])),
    };
  }

  private recordNotRun(calls: readonly ToolUseBlock[], why: string): void {
    for (const call of calls) recordControlCall(this.chain, this.input, call, { success: false, error: `Not run: ${why}.` });
  }

  private synthesise(answer: string): void {
    this.chain.synthesis({ sources: this.chain.observationSources(), conclusion: answer }, { level: this.input.visibility });
  }
}
