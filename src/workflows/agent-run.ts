import { isCancellation } from '@temporalio/workflow';
import {
  addUsage,
  addUsd,
  zeroUsage,
  type AgentInput,
  type ModelMessage,
  type ModelReply,
  type TerminationReason,
  type ToolResultBlock,
  type ToolSpec,
  type ToolUseBlock,
  type TokenUsage,
} from '../shared';
import { activities, modelCallOptions, toolCallOptions } from './activity-proxies';
import type { ChainBuilder } from './chain-builder';
import { decideNextStep, replyText, type NextStep } from './decide-next-step';
import { failureMessage } from './failure-message';
import { finishTool, maxIterationsInstruction, systemPrompt, toModelTool } from './prompt';
import { firstStop, reachedMaxIterations, type StopCondition } from './stop-conditions';
import { createToolCallValidator, type ToolCallCheck } from './validate-tool-call';

export interface RunOutcome {
  reason: TerminationReason;
  answer: string;
  error?: string;
}

/** Raised inside the loop when a model call fails for good; ends the run with reason `error`. */
class ModelCallFailed {
  constructor(readonly message: string) {}
}

/**
 * Reports progress. `details` refreshes only the Web UI's markdown (no history event), so it can
 * run on every step; `all` also upserts search attributes, an event each, so only once per turn.
 */
export type ProgressHook = (scope: 'details' | 'all') => void;

/** One ReAct run: Thought → Action → Observation until an answer or a stop condition. */
export class AgentRun {
  usage: TokenUsage = zeroUsage();
  costUsd = 0;
  iteration = 0;
  modelCalls = 0;
  toolCalls = 0;
  lastModel: string;
  private readonly messages: ModelMessage[];
  private readonly validate: (call: ToolUseBlock) => ToolCallCheck;
  private readonly stops: StopCondition[];

  constructor(
    private readonly input: AgentInput,
    private readonly tools: readonly ToolSpec[],
    readonly chain: ChainBuilder,
    private readonly workflowId: string,
    private readonly onProgress: ProgressHook,
  ) {
    this.messages = [{ role: 'user', content: [{ type: 'text', text: input.task }] }];
    this.validate = createToolCallValidator(tools, input.finishToolName);
    this.stops = [reachedMaxIterations(input.maxIterations)];
    this.lastModel = input.model.model;
  }

  async run(): Promise<RunOutcome> {
    try {
      for (;;) {
        const stop = firstStop(this.stops, { iteration: this.iteration });
        if (stop) return await this.summarise(stop);
        this.iteration += 1;
        this.chain.iteration = this.iteration;
        const reply = await this.callModel('auto');
        const outcome = await this.act(decideNextStep(reply, this.input.finishToolName), reply);
        if (outcome) return outcome;
      }
    } catch (err) {
      if (err instanceof ModelCallFailed) return { reason: 'error', answer: '', error: err.message };
      throw err;
    }
  }

  /** Carries out one decision; returns an outcome when the run is over. */
  private async act(next: NextStep, reply: ModelReply): Promise<RunOutcome | undefined> {
    switch (next.kind) {
      case 'final_answer':
        if (next.via === 'finish_tool') {
          this.recordThought(reply);
          this.recordFinish(next.finishCall, next.answer);
          for (const call of next.skipped) this.recordSkipped(call);
        }
        this.synthesise(next.answer);
        return { reason: 'success', answer: next.answer };
      case 'run_tools':
        this.recordThought(reply);
        await this.observe(next.calls);
        return undefined;
      case 'invalid_finish':
        this.recordThought(reply);
        await this.observe([...next.others, next.finishCall], new Map([[next.finishCall.id, next.problem]]));
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
    const results: ToolResultBlock[] = [];
    for (const call of calls) {
      const problem = rejected.get(call.id);
      results.push(problem ? this.recordRejected(call, problem) : await this.runTool(call));
    }
    this.messages.push({ role: 'user', content: results });
    this.chain.setStatus('thinking');
    this.onProgress('all');
  }

  private async runTool(call: ToolUseBlock): Promise<ToolResultBlock> {
    const check = this.validate(call);
    if (!check.ok) return this.recordRejected(call, check.observation);
    const { spec, args } = check;
    const visibility = { level: spec.visibility };
    const callStep = this.chain.toolCall(
      { toolType: spec.type, toolName: spec.name, arguments: args, correlationId: call.id },
      visibility,
    );
    this.toolCalls += 1;
    this.onProgress('details');
    const summary = `${spec.name} ${JSON.stringify(args)}`.slice(0, 200);
    try {
      const out = await activities.runTool.executeWithOptions(toolCallOptions(spec, summary), [
        {
          toolName: spec.name,
          arguments: args,
          idempotencyKey: `${this.workflowId}:${callStep.stepId}`,
          maxResultChars: this.input.maxToolResultChars,
        },
      ]);
      this.chain.toolResult(
        { correlationId: call.id, success: true, result: out.result, durationMs: out.durationMs, ...(out.truncated ? { truncated: true } : {}) },
        visibility,
      );
      const content = typeof out.result === 'string' ? out.result : JSON.stringify(out.result);
      return { type: 'tool_result', toolUseId: call.id, content, isError: false };
    } catch (err) {
      if (isCancellation(err)) throw err;
      const error = `Tool "${spec.name}" failed: ${failureMessage(err)}`;
      this.chain.toolResult({ correlationId: call.id, success: false, result: null, error, durationMs: 0 }, visibility);
      return { type: 'tool_result', toolUseId: call.id, content: error, isError: true };
    }
  }

  private async callModel(toolChoice: 'auto' | 'none'): Promise<ModelReply> {
    const { model } = this.input;
    const tools = [...this.tools.map(toModelTool), finishTool(this.input)];
    const correlationId = this.chain.newId();
    const visibility = { level: this.input.visibility };
    this.chain.toolCall(
      {
        toolType: 'llm',
        toolName: model.model,
        arguments: { provider: model.provider, messages: this.messages.length, tools: tools.map((t) => t.name), toolChoice },
        correlationId,
      },
      visibility,
      { model: model.model },
    );
    this.modelCalls += 1;
    try {
      const reply = await activities.callModel.executeWithOptions(
        modelCallOptions(model, `${model.model} · iteration ${this.iteration}`),
        [
          {
            provider: model.provider,
            model: model.model,
            system: systemPrompt(this.input),
            messages: this.messages,
            tools,
            toolChoice,
            maxTokens: model.maxTokens,
          },
        ],
      );
      this.usage = addUsage(this.usage, reply.usage);
      this.costUsd = addUsd(this.costUsd, reply.costUsd);
      this.lastModel = reply.model;
      const toolUses = reply.content.filter((b) => b.type === 'tool_use').map((b) => ({ id: b.id, name: b.name }));
      this.chain.toolResult(
        {
          correlationId,
          success: true,
          result: { stopReason: reply.stopReason, text: replyText(reply), toolCalls: toolUses },
          durationMs: reply.durationMs,
        },
        visibility,
        { model: reply.model, usage: reply.usage, costUsd: reply.costUsd },
      );
      this.messages.push({ role: 'assistant', content: reply.content });
      this.onProgress('all');
      return reply;
    } catch (err) {
      if (isCancellation(err)) throw err;
      const error = `Model call failed: ${failureMessage(err)}`;
      this.chain.toolResult({ correlationId, success: false, result: null, error, durationMs: 0 }, visibility, { model: model.model });
      throw new ModelCallFailed(error);
    }
  }

  /** The last word when a stop condition ends the run: one model call without tools (seed 001 §2.3.1). */
  private async summarise(reason: TerminationReason): Promise<RunOutcome> {
    this.appendUserText(maxIterationsInstruction(this.input.maxIterations));
    let answer: string;
    try {
      answer = replyText(await this.callModel('none'));
    } catch (err) {
      if (!(err instanceof ModelCallFailed)) throw err;
      answer = '';
    }
    if (answer === '') answer = this.fallbackSummary();
    this.synthesise(answer);
    return { reason, answer };
  }

  /** Written without a model, so a failed summary call still leaves the partial results in view. */
  private fallbackSummary(): string {
    const observations = this.chain.steps.filter((s) => s.type === 'tool_result' && s.model === undefined && s.toolResult.success);
    const lines = observations.map((s) => (s.type === 'tool_result' ? `- ${JSON.stringify(s.toolResult.result).slice(0, 300)}` : ''));
    return [`Stopped after ${this.iteration} iterations without a final answer.`, 'Results gathered so far:', ...lines].join('\n');
  }

  private appendUserText(text: string): void {
    const last = this.messages[this.messages.length - 1];
    // Tool results and the instruction share one user turn: roles must alternate.
    if (last?.role === 'user') last.content.push({ type: 'text', text });
    else this.messages.push({ role: 'user', content: [{ type: 'text', text }] });
  }

  private recordThought(reply: ModelReply): void {
    const text = replyText(reply);
    if (text) this.chain.thinking(text, { level: this.input.visibility });
  }

  private recordFinish(call: ToolUseBlock, answer: string): void {
    const visibility = { level: this.input.visibility };
    this.chain.toolCall({ toolType: 'custom', toolName: call.name, arguments: call.input, correlationId: call.id }, visibility);
    this.chain.toolResult({ correlationId: call.id, success: true, result: answer, durationMs: 0 }, visibility);
  }

  private recordSkipped(call: ToolUseBlock): void {
    const error = `Not run: "${this.input.finishToolName}" was called in the same turn.`;
    this.chain.toolCall({ toolType: 'custom', toolName: call.name, arguments: call.input, correlationId: call.id }, { level: 'full' });
    this.chain.toolResult({ correlationId: call.id, success: false, result: null, error, durationMs: 0 }, { level: 'full' });
  }

  /** A call that never reached an activity: unknown tool, bad arguments, malformed finish. */
  private recordRejected(call: ToolUseBlock, observation: string): ToolResultBlock {
    const visibility = { level: 'full' as const };
    this.chain.toolCall({ toolType: 'custom', toolName: call.name, arguments: call.input, correlationId: call.id }, visibility);
    this.chain.toolResult({ correlationId: call.id, success: false, result: null, error: observation, durationMs: 0 }, visibility);
    return { type: 'tool_result', toolUseId: call.id, content: observation, isError: true };
  }

  private synthesise(answer: string): void {
    const sources = this.chain.observationSources();
    this.chain.synthesis({ sources, conclusion: answer }, { level: this.input.visibility });
  }
}
