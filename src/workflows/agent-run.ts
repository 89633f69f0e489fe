import { isCancellation } from '@temporalio/workflow';
import type { AgentInput, ModelReply, TerminationReason, ToolSpec, ToolUseBlock } from '../shared';
import { activities, toolCallOptions } from './activity-proxies';
import type { ChainBuilder } from './chain-builder';
import { replyText, type NextStep } from './decide-next-step';
import { failureMessage } from './failure-message';
import { ModelCallFailed, modelTurn } from './model-turn';
import { maxIterationsInstruction } from './prompt';
import { RunState } from './run-state';
import { firstStop, reachedMaxIterations, type StopCondition } from './stop-conditions';
import type { Observation, Strategy } from './strategies';
import { createToolCallValidator, type ToolCallCheck } from './validate-tool-call';

export interface RunOutcome {
  reason: TerminationReason;
  answer: string;
  error?: string;
}

/**
 * Reports progress. `details` refreshes only the Web UI's markdown (no history event), so it can
 * run on every step; `all` also upserts search attributes, an event each, so only once per turn.
 */
export type ProgressHook = (scope: 'details' | 'all') => void;

/** One ReAct run: Thought → Action → Observation until an answer or a stop condition. */
export class AgentRun {
  readonly state: RunState;
  private readonly validate: (call: ToolUseBlock) => ToolCallCheck;
  private readonly stops: StopCondition[];

  constructor(
    private readonly input: AgentInput,
    tools: readonly ToolSpec[],
    private readonly strategy: Strategy,
    readonly chain: ChainBuilder,
    private readonly workflowId: string,
    private readonly onProgress: ProgressHook,
  ) {
    this.state = new RunState(input.model.model, [{ role: 'user', content: [{ type: 'text', text: input.task }] }]);
    this.validate = createToolCallValidator(tools, input.finishToolName);
    this.stops = [reachedMaxIterations(input.maxIterations)];
  }

  async run(): Promise<RunOutcome> {
    try {
      for (;;) {
        const stop = firstStop(this.stops, { iteration: this.state.iteration });
        if (stop) return await this.summarise(stop);
        this.state.iteration += 1;
        this.chain.iteration = this.state.iteration;
        const reply = await this.callModel('auto');
        this.recordExtendedThinking(reply);
        const unusable = this.unusable(reply);
        if (unusable) return unusable;
        const outcome = await this.act(this.strategy.decide(reply));
        if (outcome) return outcome;
      }
    } catch (err) {
      if (err instanceof ModelCallFailed) return { reason: 'error', answer: '', error: err.message };
      throw err;
    }
  }

  private callModel(toolChoice: 'auto' | 'none'): Promise<ModelReply> {
    return modelTurn(this.input, this.strategy, this.state, this.chain, toolChoice, () => this.onProgress('all'));
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

  /** Carries out one decision; returns an outcome when the run is over. */
  private async act(next: NextStep): Promise<RunOutcome | undefined> {
    if (next.thought) this.chain.thinking(next.thought, { level: this.input.visibility });
    switch (next.kind) {
      case 'final_answer':
        if (next.via === 'finish_tool') {
          this.recordControlCall(next.finishCall, { success: true, result: next.answer });
          for (const call of next.skipped) {
            this.recordControlCall(call, { success: false, error: `Not run: "${this.input.finishToolName}" was called in the same turn.` });
          }
        }
        this.synthesise(next.answer);
        return { reason: 'success', answer: next.answer };
      case 'run_tools':
        await this.observe(next.calls);
        return undefined;
      case 'invalid_finish':
        await this.observe([...next.others, next.finishCall], new Map([[next.finishCall.id, next.problem]]));
        return undefined;
      case 'format_error':
        this.state.formatErrors += 1;
        this.chain.thinking(`Reply not understood: ${next.message}`, { level: 'full' });
        this.state.messages.push(this.strategy.observe([{ callId: '', content: next.message, isError: true }]));
        return undefined;
      default: {
        const unreachable: never = next;
        throw new Error(`Unhandled next step ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** Runs the calls one by one and hands every result, errors included, back to the model. */
  private async observe(calls: ToolUseBlock[], rejected = new Map<string, string>()): Promise<void> {
    this.chain.setStatus('tool_calling');
    const observations: Observation[] = [];
    for (const call of calls) {
      const problem = rejected.get(call.id);
      observations.push(problem ? this.reject(call, problem) : await this.runTool(call));
    }
    this.state.messages.push(this.strategy.observe(observations));
    this.chain.setStatus('thinking');
    this.onProgress('all');
  }

  private async runTool(call: ToolUseBlock): Promise<Observation> {
    const check = this.validate(call);
    if (!check.ok) return this.reject(call, check.observation);
    const { spec, args } = check;
    const visibility = { level: spec.visibility };
    const callStep = this.chain.toolCall({ toolType: spec.type, toolName: spec.name, arguments: args, correlationId: call.id }, visibility);
    this.state.toolCalls += 1;
    this.onProgress('details');
    const summary = `${spec.name} ${JSON.stringify(args)}`.slice(0, 200);
    try {
      const out = await activities.runTool.executeWithOptions(toolCallOptions(spec, summary), [
        { toolName: spec.name, arguments: args, idempotencyKey: `${this.workflowId}:${callStep.stepId}`, maxResultChars: this.input.maxToolResultChars },
      ]);
      this.chain.toolResult(
        { correlationId: call.id, success: true, result: out.result, durationMs: out.durationMs, ...(out.truncated ? { truncated: true } : {}) },
        visibility,
      );
      return { callId: call.id, content: typeof out.result === 'string' ? out.result : JSON.stringify(out.result), isError: false };
    } catch (err) {
      if (isCancellation(err)) throw err;
      const error = `Tool "${spec.name}" failed: ${failureMessage(err)}`;
      this.chain.toolResult({ correlationId: call.id, success: false, result: null, error, durationMs: 0 }, visibility);
      return { callId: call.id, content: error, isError: true };
    }
  }

  /** The last word when a stop condition ends the run: one model call without tools (seed 001 §2.3.1). */
  private async summarise(reason: TerminationReason): Promise<RunOutcome> {
    this.state.appendUserText(maxIterationsInstruction(this.input.maxIterations));
    let answer = '';
    try {
      const reply = await this.callModel('none');
      if (reply.stopReason !== 'refusal') answer = replyText(reply);
    } catch (err) {
      if (!(err instanceof ModelCallFailed)) throw err;
    }
    if (answer === '') answer = this.fallbackSummary();
    this.synthesise(answer);
    return { reason, answer };
  }

  /** Written without a model, so a failed summary call still leaves the partial results in view. */
  private fallbackSummary(): string {
    const lines = this.chain.steps.flatMap((s) =>
      s.type === 'tool_result' && s.model === undefined && s.toolResult.success ? [`- ${JSON.stringify(s.toolResult.result).slice(0, 300)}`] : [],
    );
    return [`Stopped after ${this.state.iteration} iterations without a final answer.`, 'Results gathered so far:', ...lines].join('\n');
  }

  /** A call that never reached an activity: unknown tool, bad arguments, malformed finish. */
  private reject(call: ToolUseBlock, observation: string): Observation {
    this.recordControlCall(call, { success: false, error: observation });
    return { callId: call.id, content: observation, isError: true };
  }

  private recordControlCall(call: ToolUseBlock, outcome: { success: boolean; result?: string; error?: string }): void {
    const visibility = { level: this.input.visibility };
    this.chain.toolCall({ toolType: 'custom', toolName: call.name, arguments: call.input, correlationId: call.id }, visibility);
    this.chain.toolResult({ correlationId: call.id, success: outcome.success, result: outcome.result ?? null, durationMs: 0, ...(outcome.error ? { error: outcome.error } : {}) }, visibility);
  }

  private synthesise(answer: string): void {
    this.chain.synthesis({ sources: this.chain.observationSources(), conclusion: answer }, { level: this.input.visibility });
  }
}
