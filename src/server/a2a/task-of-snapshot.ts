import type { Artifact, Message, Part, Task, TaskState, TaskStatus } from '@a2a-js/sdk' with {
  'resolution-mode': 'import',
};
import type { AgentResult } from '../../shared';
import type { RunInput, RunSnapshot } from './run-snapshot';

/** The protocol's task states and roles (proto enum numbers, fixed by the A2A specification). */
export const TASK_STATE = {
  submitted: 1,
  working: 2,
  completed: 3,
  failed: 4,
  canceled: 5,
  inputRequired: 6,
} as const satisfies Record<string, TaskState>;
const ROLE_AGENT = 2;

/** States after which a task changes no more. */
export const isTerminal = (state: TaskState): boolean =>
  state === TASK_STATE.completed || state === TASK_STATE.failed || state === TASK_STATE.canceled;

/** States a blocking send returns at: terminal, or waiting for the caller. */
export const isSettled = (state: TaskState): boolean => isTerminal(state) || state === TASK_STATE.inputRequired;

/** What the `thoughtline` metadata of a task carries: the run, its chain, and what it cost so far. */
export interface ThoughtlineTaskMetadata {
  runId: string;
  chain: string;
  costUsd?: number;
  usage?: AgentResult['usage'];
  terminationReason?: AgentResult['terminationReason'];
}

export const textPart = (text: string): Part => ({
  content: { $case: 'text', value: text },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

export const dataPart = (value: Record<string, unknown>): Part => ({
  content: { $case: 'data', value },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
});

/** An agent message of the task. Its id names the state it describes, so the same state reads the same. */
function agentMessage(runId: string, contextId: string, key: string, parts: Part[]): Message {
  return {
    messageId: `${runId}:${key}`,
    contextId,
    taskId: runId,
    role: ROLE_AGENT,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** What a person reads in an input-required status, and the data a client answers from. */
function inputParts(input: RunInput): Part[] {
  if (input.kind === 'question')
    return [
      textPart(`${input.question}\n\nReply in this task with your answer.`),
      dataPart({ kind: 'question', callId: input.callId, question: input.question, expiresAt: input.expiresAt }),
    ];
  const { record } = input;
  return [
    textPart(
      `Approval needed: ${record.toolName} ${JSON.stringify(record.arguments)} (${record.reason}). ` +
        'Reply in this task with "approve" or "reject: <reason>", or a data part {"approved": true|false, "reason": "..."}.',
    ),
    dataPart({
      kind: 'approval',
      callId: record.callId,
      toolName: record.toolName,
      arguments: record.arguments,
      argumentsHash: record.argumentsHash,
      approverRoles: record.approverRoles,
      expiresAt: record.expiresAt,
    }),
  ];
}

export const chainPath = (runId: string): string => `/v1/runs/${encodeURIComponent(runId)}/chain`;

/** The `thoughtline` metadata of the snapshot: cost and usage once the run reports them. */
export function metadataOf(snapshot: RunSnapshot): ThoughtlineTaskMetadata {
  const base = { runId: snapshot.runId, chain: chainPath(snapshot.runId) };
  switch (snapshot.state) {
    case 'working':
    case 'input-required':
      return { ...base, costUsd: snapshot.status.costUsd, usage: snapshot.status.usage };
    case 'ended':
      return {
        ...base,
        costUsd: snapshot.result.costUsd,
        usage: snapshot.result.usage,
        terminationReason: snapshot.result.terminationReason,
      };
    default:
      return base;
  }
}

/** The task's status: its state and a message saying what it is doing, waiting for, or how it ended. */
export function statusOf(snapshot: RunSnapshot, contextId = snapshot.runId, now = new Date()): TaskStatus {
  const at = now.toISOString();
  const { runId } = snapshot;
  switch (snapshot.state) {
    case 'submitted':
      return {
        state: TASK_STATE.submitted,
        message: agentMessage(runId, contextId, 'submitted', [textPart('The run has started.')]),
        timestamp: at,
      };
    case 'working': {
      const { status } = snapshot;
      const line = `Step ${status.steps} · iteration ${status.iteration}/${status.maxIterations}${status.lastStep ? `: ${status.lastStep}` : ''}`;
      return {
        state: TASK_STATE.working,
        message: agentMessage(runId, contextId, `step-${status.steps}`, [textPart(line)]),
        timestamp: at,
      };
    }
    case 'input-required': {
      const key = snapshot.input.kind === 'approval' ? snapshot.input.record.callId : snapshot.input.callId;
      return {
        state: TASK_STATE.inputRequired,
        message: agentMessage(runId, contextId, `input-${key}`, inputParts(snapshot.input)),
        timestamp: at,
      };
    }
    case 'ended': {
      const { result } = snapshot;
      if (result.success)
        return {
          state: TASK_STATE.completed,
          message: agentMessage(runId, contextId, 'completed', [textPart(result.finalAnswer)]),
          timestamp: at,
        };
      const canceled = result.terminationReason === 'cancelled';
      const why = `The run ended without an answer (${result.terminationReason}${result.error ? `: ${result.error}` : ''}).`;
      return {
        state: canceled ? TASK_STATE.canceled : TASK_STATE.failed,
        message: agentMessage(runId, contextId, result.terminationReason, [
          textPart(result.finalAnswer ? `${why}\n\n${result.finalAnswer}` : why),
        ]),
        timestamp: at,
      };
    }
    case 'gone': {
      const canceled = snapshot.runState === 'cancelled';
      return {
        state: canceled ? TASK_STATE.canceled : TASK_STATE.failed,
        message: agentMessage(runId, contextId, snapshot.runState, [
          textPart(`The run ended as ${snapshot.runState} before it recorded a result; its chain says how far it got.`),
        ]),
        timestamp: at,
      };
    }
  }
}

/** The final answer of a run that ended with one: a text part, and the `thoughtline` metadata. */
export function artifactOf(snapshot: RunSnapshot): Artifact | undefined {
  if (snapshot.state !== 'ended' || !snapshot.result.success) return undefined;
  return {
    artifactId: 'final-answer',
    name: 'final answer',
    description: 'The run’s final answer; its reasoning chain is at metadata.thoughtline.chain.',
    parts: [textPart(snapshot.result.finalAnswer)],
    metadata: { thoughtline: metadataOf(snapshot) },
    extensions: [],
  };
}

/**
 * The run as an A2A task: its id is the run's workflow id, its context the thread it is a turn of
 * (else the run's id too); history holds the caller's
 * message when this request carried one, then the status message, cut to the last `historyLength`.
 */
export function taskOfSnapshot(
  snapshot: RunSnapshot,
  options: { userMessage?: Message; historyLength?: number; contextId?: string } = {},
): Task {
  const contextId = options.contextId ?? snapshot.runId;
  const status = statusOf(snapshot, contextId);
  const artifact = artifactOf(snapshot);
  const history = [
    ...(options.userMessage ? [{ ...options.userMessage, taskId: snapshot.runId, contextId }] : []),
    ...(status.message ? [status.message] : []),
  ];
  const kept =
    options.historyLength === undefined ? history : history.slice(history.length - Math.max(0, options.historyLength));
  return {
    id: snapshot.runId,
    contextId,
    status,
    artifacts: artifact ? [artifact] : [],
    history: options.historyLength === 0 ? [] : kept,
    metadata: { thoughtline: metadataOf(snapshot) },
  };
}
