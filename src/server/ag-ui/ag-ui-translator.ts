import { EventType, type BaseEvent, type Interrupt } from '@ag-ui/core';
import type { AgentStatus, ApprovalRecord, ReasoningStep } from '../../domain';
import { DEFAULT_FINISH_TOOL, DEFAULT_GIVE_UP_TOOL } from '../../domain/run/constants';
import type { RunEnding } from '../../domain/run/run-ending';
import { encodeInterruptId } from './interrupt-id';
import { planPatch, planState, withTaskUpdate, type PlanState } from './plan-state';

/** What a run's stream is called in its AG-UI events: the AG-UI thread and run ids the front end knows. */
export interface AgUiRunNames {
  threadId: string;
  /** The AG-UI run id (the POST's `runId`, or the Thoughtline run id on GET). */
  runId: string;
  /** The Thoughtline run (workflow id) the events come from. */
  workflowId: string;
}

/** Longest tool result sent in one TOOL_CALL_RESULT (characters); the chain holds the whole. */
const MAX_RESULT_CHARS = 16_000;

/**
 * Turns one watcher's Thoughtline events (step, status, approval, text_delta, tool_progress,
 * sub_agent_step, sub_agent, end, in
 * the viewer's view and lens; the end with the run's ending) into AG-UI events, in order. Holds what one connection has said:
 * the open streamed message, the plan state last sent. `done` once it sent RUN_FINISHED or
 * RUN_ERROR: the stream then closes (a run waiting for a person finishes with the interrupt
 * outcome; the front end's next request answers it).
 */
export class AgUiTranslator {
  private started = false;
  private open: { kind: 'text' | 'reasoning'; id: string } | undefined;
  /** Model calls whose STEP_STARTED went out, by call id; loop tool calls left out. */
  private readonly modelSteps = new Map<string, string>();
  private readonly loopCalls = new Set<string>();
  /** The step number of each tool call sent: an interrupt's resume point is at least its call's step. */
  private readonly callSteps = new Map<string, number>();
  /** Each tool call sent, by its step id: a tool's progress goes out only for a call this stream showed. */
  private readonly callsByStep = new Map<string, string>();
  /** The model's text for the coming step went out live: its thinking step is not repeated. */
  private streamed = false;
  private state: PlanState | undefined;
  done = false;

  constructor(private readonly names: AgUiRunNames) {}

  translate(type: string, data: unknown): BaseEvent[] {
    if (this.done) return [];
    const out: BaseEvent[] = this.runStarted();
    const event = data as Record<string, unknown>;
    switch (type) {
      case 'text_delta':
        out.push(...this.delta(event));
        break;
      case 'step':
        out.push(
          ...this.closeOpen(),
          ...this.step(event['step'] as ReasoningStep),
          ...this.planOf(event['step'] as ReasoningStep),
        );
        break;
      case 'status': {
        // The bus's own status events carry only the chain status; the watcher's carry the whole.
        const status = event['status'] as AgentStatus | undefined;
        if (!status) break;
        out.push(...this.plan(planState(status.plan)));
        const interrupts = interruptsOf(status, this.names.workflowId, (callId) => this.resumeStep(event, callId));
        if (interrupts.length > 0) out.push(...this.finish({ type: 'interrupt', interrupts }));
        break;
      }
      case 'approval': {
        const approval = event['approval'] as ApprovalRecord;
        // Only for a call this stream showed; else the status read when the run waits says it.
        if (approval.status === 'pending' && this.callSteps.has(approval.callId))
          out.push(
            ...this.finish({
              type: 'interrupt',
              interrupts: [approvalInterrupt(approval, this.names.workflowId, this.resumeStep(event, approval.callId))],
            }),
          );
        break;
      }
      case 'end': {
        // The writer puts the run's ending (runEnding, in this stream's view and lens) on the end event.
        const ending = event['ending'] as RunEnding | undefined;
        if (!ending) throw new Error('an end event without the run ending');
        out.push(...this.ended(ending));
        break;
      }
      case 'tool_progress':
        out.push(...this.progress(event));
        break;
      case 'sub_agent_step':
        // A running sub-agent's step, already in this stream's view of the child's run.
        out.push(custom('thoughtline.sub_agent_step', { subAgent: event['subAgent'], step: event['step'] }));
        break;
      default:
        // sub_agent: its steps reach the parent's chain as a tool call and its result.
        break;
    }
    return out;
  }

  /**
   * Where a resumed stream goes on after an interrupt: the event's step, and never before the
   * step of the call it concerns when this stream sent it (an event may be published with the
   * step before its call's).
   */
  private resumeStep(event: Record<string, unknown>, callId: string): number {
    const at = Number(event['stepNumber']);
    return Math.max(Number.isSafeInteger(at) && at >= 0 ? at : 0, this.callSteps.get(callId) ?? 0);
  }

  /**
   * A running tool's progress (in this stream's view) as a CUSTOM event on its AG-UI tool call:
   * only for a call this stream sent, so a call it never showed says nothing.
   */
  private progress(event: Record<string, unknown>): BaseEvent[] {
    const toolCallId = this.callsByStep.get(String(event['stepId']));
    if (toolCallId === undefined) return [];
    const { toolName, seq, message, fraction } = event;
    return [
      custom('thoughtline.tool_progress', {
        toolCallId,
        toolName,
        seq,
        ...(typeof message === 'string' ? { message } : {}),
        ...(typeof fraction === 'number' ? { fraction } : {}),
      }),
    ];
  }

  /** A failure to report instead of the run's end (RUN_STARTED first when nothing was sent). */
  error(message: string, code: string): BaseEvent[] {
    if (this.done) return [];
    this.done = true;
    return [
      ...this.runStarted(),
      ...this.closeOpen(),
      ...this.closeSteps(),
      { type: EventType.RUN_ERROR, message, code } as BaseEvent,
    ];
  }

  private runStarted(): BaseEvent[] {
    if (this.started) return [];
    this.started = true;
    return [
      {
        type: EventType.RUN_STARTED,
        threadId: this.names.threadId,
        runId: this.names.runId,
        metadata: { thoughtline: { runId: this.names.workflowId } },
      } as BaseEvent,
    ];
  }

  /** Model text as it streams: one message per model call (activity and attempt). */
  private delta(event: Record<string, unknown>): BaseEvent[] {
    const kind = event['kind'] === 'thinking' ? 'reasoning' : 'text';
    const id = `${this.names.workflowId}/${String(event['activityId'])}/${String(event['attempt'])}/${kind}`;
    const text = String(event['text'] ?? '');
    const out: BaseEvent[] = [];
    if (this.open && this.open.id !== id) out.push(...this.closeOpen());
    this.streamed = true;
    if (!this.open) {
      this.open = { kind, id };
      out.push(
        kind === 'text'
          ? ({ type: EventType.TEXT_MESSAGE_START, messageId: id, role: 'assistant' } as BaseEvent)
          : ({ type: EventType.REASONING_START, messageId: id } as BaseEvent),
      );
      if (kind === 'reasoning')
        out.push({ type: EventType.REASONING_MESSAGE_START, messageId: id, role: 'reasoning' } as BaseEvent);
    }
    if (text !== '')
      out.push({
        type: kind === 'text' ? EventType.TEXT_MESSAGE_CONTENT : EventType.REASONING_MESSAGE_CONTENT,
        messageId: id,
        delta: text,
      } as BaseEvent);
    return out;
  }

  /** Model calls whose end this stream has not sent: closed before the run's last event (the client requires it). */
  private closeSteps(): BaseEvent[] {
    const names = [...this.modelSteps.values()];
    this.modelSteps.clear();
    return names.map((stepName) => ({ type: EventType.STEP_FINISHED, stepName }) as BaseEvent);
  }

  private closeOpen(): BaseEvent[] {
    const open = this.open;
    if (!open) return [];
    this.open = undefined;
    return open.kind === 'text'
      ? [{ type: EventType.TEXT_MESSAGE_END, messageId: open.id } as BaseEvent]
      : [
          { type: EventType.REASONING_MESSAGE_END, messageId: open.id } as BaseEvent,
          { type: EventType.REASONING_END, messageId: open.id } as BaseEvent,
        ];
  }

  private step(step: ReasoningStep): BaseEvent[] {
    const id = `${this.names.workflowId}/${step.stepId}`;
    switch (step.type) {
      case 'thinking': {
        // A thought is reasoning; when the model's text for it streamed to this client, it went out then.
        const streamed = this.streamed;
        this.streamed = false;
        if (streamed) return [];
        return [
          { type: EventType.REASONING_START, messageId: id } as BaseEvent,
          { type: EventType.REASONING_MESSAGE_START, messageId: id, role: 'reasoning' } as BaseEvent,
          { type: EventType.REASONING_MESSAGE_CONTENT, messageId: id, delta: step.thought || ' ' } as BaseEvent,
          { type: EventType.REASONING_MESSAGE_END, messageId: id } as BaseEvent,
          { type: EventType.REASONING_END, messageId: id } as BaseEvent,
        ];
      }
      case 'tool_call': {
        const callId = step.toolCall.correlationId;
        if (step.toolCall.toolType === 'llm') {
          // A model call is a step of the run, not a tool the front end sees called.
          const stepName = `model call ${step.toolCall.toolName}`;
          this.modelSteps.set(callId, stepName);
          return [{ type: EventType.STEP_STARTED, stepName } as BaseEvent];
        }
        // The loop's own tools: the answer arrives as the final message and RUN_FINISHED's result.
        if (LOOP_TOOLS.has(step.toolCall.toolName)) {
          this.loopCalls.add(callId);
          return [];
        }
        this.callSteps.set(callId, step.stepNumber);
        this.callsByStep.set(step.stepId, callId);
        return [
          { type: EventType.TOOL_CALL_START, toolCallId: callId, toolCallName: step.toolCall.toolName } as BaseEvent,
          {
            type: EventType.TOOL_CALL_ARGS,
            toolCallId: callId,
            delta: JSON.stringify(step.toolCall.arguments),
          } as BaseEvent,
          { type: EventType.TOOL_CALL_END, toolCallId: callId } as BaseEvent,
        ];
      }
      case 'tool_result': {
        const result = step.toolResult;
        const stepName = this.modelSteps.get(result.correlationId);
        if (stepName !== undefined) {
          this.modelSteps.delete(result.correlationId);
          return [{ type: EventType.STEP_FINISHED, stepName } as BaseEvent];
        }
        if (this.loopCalls.has(result.correlationId)) return [];
        const content = result.success ? asText(result.result) : `Error: ${result.error ?? asText(result.result)}`;
        return [
          {
            type: EventType.TOOL_CALL_RESULT,
            messageId: id,
            toolCallId: result.correlationId,
            content: content.length > MAX_RESULT_CHARS ? `${content.slice(0, MAX_RESULT_CHARS - 1)}…` : content,
            role: 'tool',
          } as BaseEvent,
        ];
      }
      case 'synthesis':
        this.streamed = false;
        return [
          { type: EventType.TEXT_MESSAGE_START, messageId: id, role: 'assistant' } as BaseEvent,
          { type: EventType.TEXT_MESSAGE_CONTENT, messageId: id, delta: step.synthesis.conclusion || ' ' } as BaseEvent,
          { type: EventType.TEXT_MESSAGE_END, messageId: id } as BaseEvent,
        ];
    }
  }

  /** The plan a step shows: a plan step's plan, or a task update applied to the plan sent. */
  private planOf(step: ReasoningStep): BaseEvent[] {
    if (step.type === 'thinking' && step.plan) return this.plan(planState(step.plan));
    if (step.type === 'tool_call' && step.toolCall.toolName === PLAN_UPDATE_TOOL && this.state)
      return this.plan(withTaskUpdate(this.state, step.toolCall.arguments));
    return [];
  }

  /** The plan as shared state: a snapshot first, then JSON Patch deltas of what changed. */
  private plan(next: PlanState | undefined): BaseEvent[] {
    if (!next) return [];
    const before = this.state;
    this.state = next;
    if (!before) return [{ type: EventType.STATE_SNAPSHOT, snapshot: { plan: next } } as BaseEvent];
    const delta = planPatch(before, next);
    return delta.length > 0 ? [{ type: EventType.STATE_DELTA, delta } as BaseEvent] : [];
  }

  private finish(
    outcome: { type: 'interrupt'; interrupts: Interrupt[] } | { type: 'success' | 'cancelled' },
    ending?: RunEnding,
  ) {
    this.done = true;
    return [
      ...this.closeOpen(),
      ...this.closeSteps(),
      {
        type: EventType.RUN_FINISHED,
        threadId: this.names.threadId,
        runId: this.names.runId,
        outcome,
        ...(ending ? { result: ending } : {}),
      } as BaseEvent,
    ];
  }

  /**
   * The run's last event, from its ending: RUN_FINISHED with the ending as its `result` for a run
   * that did not fail (outcome success for a success and a stop at a limit, whose partial answer
   * is `result.answer`; cancelled for a person's cancel and a termination); RUN_ERROR with the
   * ending's summary, its label as the code and the ending in `metadata.thoughtline` otherwise.
   */
  private ended(ending: RunEnding): BaseEvent[] {
    // By tone, as A2A and MCP do.
    if (ending.tone === 'ok' || ending.tone === 'limit') return this.finish({ type: 'success' }, ending);
    if (ending.tone === 'stopped') return this.finish({ type: 'cancelled' }, ending);
    this.done = true;
    return [
      ...this.closeOpen(),
      ...this.closeSteps(),
      {
        type: EventType.RUN_ERROR,
        message: ending.summary,
        code: ending.label,
        metadata: { thoughtline: { runId: this.names.workflowId, ending } },
      } as BaseEvent,
    ];
  }
}

/** What the run waits for, as AG-UI interrupts: its pending approvals, its open question and a paused budget. */
function interruptsOf(status: AgentStatus, workflowId: string, stepOf: (callId: string) => number): Interrupt[] {
  const interrupts = status.pendingApprovals
    .filter((a) => a.status === 'pending')
    .map((a) => approvalInterrupt(a, workflowId, stepOf(a.callId)));
  const question = status.openQuestion;
  if (question)
    interrupts.push({
      id: encodeInterruptId({
        kind: 'question',
        runId: workflowId,
        callId: question.callId,
        step: stepOf(question.callId),
      }),
      reason: 'question',
      message: question.question,
      toolCallId: question.callId,
      responseSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      expiresAt: question.expiresAt,
    });
  const pause = status.budgetPause;
  if (pause)
    interrupts.push({
      id: encodeInterruptId({ kind: 'budget', runId: workflowId, pausedAt: pause.pausedAt, step: stepOf('') }),
      reason: 'budget',
      message: pause.message,
      responseSchema: {
        type: 'object',
        properties: {
          tokens: { type: 'integer', minimum: 1 },
          costUsd: { type: 'number', exclusiveMinimum: 0 },
          iterations: { type: 'integer', minimum: 1 },
          stop: { type: 'boolean' },
          note: { type: 'string' },
        },
      },
      expiresAt: pause.expiresAt,
      metadata: { thoughtline: { budgetPause: pause } },
    });
  return interrupts;
}

function approvalInterrupt(approval: ApprovalRecord, workflowId: string, step: number): Interrupt {
  return {
    id: encodeInterruptId({
      kind: 'approval',
      runId: workflowId,
      callId: approval.callId,
      argumentsHash: approval.argumentsHash,
      step,
    }),
    reason: 'tool_approval',
    message: `Approve ${approval.toolName}? (${approval.reason})`,
    toolCallId: approval.callId,
    responseSchema: {
      type: 'object',
      properties: { approved: { type: 'boolean' }, reason: { type: 'string' } },
      required: ['approved'],
    },
    expiresAt: approval.expiresAt,
    metadata: {
      thoughtline: {
        toolName: approval.toolName,
        arguments: approval.arguments,
        argumentsHash: approval.argumentsHash,
        ...(approval.workflowId ? { waitingRun: approval.workflowId } : {}),
      },
    },
  };
}

/** The planning loop's task-update tool (its default name): each call moves the plan state on. */
const PLAN_UPDATE_TOOL = 'update_task';

/** The tools the loop itself offers (default names): not the front end's business as tool calls. */
const LOOP_TOOLS: ReadonlySet<string> = new Set([DEFAULT_FINISH_TOOL, DEFAULT_GIVE_UP_TOOL]);

const asText = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** Thoughtline's own events on the AG-UI stream, which front ends without a handler for the name ignore. */
const custom = (name: string, value: unknown): BaseEvent => ({ type: EventType.CUSTOM, name, value }) as BaseEvent;
