import type { Artifact, Message, Part, Task, TaskState, TaskStatus } from '@a2a-js/sdk' with {
  'resolution-mode': 'import',
};
import type { AgentResult } from '../../../domain';
import type { RunEnding } from '../../../domain/run/run-ending';
import type { RunInput, RunSnapshot } from './run-snapshot';
import { chainArtifactOf, chainPath } from './chain-artifact';

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

/**
 * What the `thoughtline` metadata of a task carries: the run, its chain, what it cost so far and,
 * once it ended, its ending (runEnding: state, termination reason, summary, grounding, error;
 * the answer itself is the artifact).
 */
export interface ThoughtlineTaskMetadata {
  runId: string;
  chain: string;
  costUsd?: number;
  usage?: AgentResult['usage'];
  terminationReason?: AgentResult['terminationReason'];
  ending?: Omit<RunEnding, 'answer'>;
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
  if (input.kind === 'budget')
    return [
      textPart(
        `Paused at its budget: ${input.pause.message} ` +
          'Reply in this task with "stop", or a data part {"tokens": N, "costUsd": USD, "iterations": N} to raise it.',
      ),
      dataPart({ kind: 'budget', ...input.pause }),
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

/** The `thoughtline` metadata of the snapshot: cost and usage once the run reports them. */
export function metadataOf(snapshot: RunSnapshot): ThoughtlineTaskMetadata {
  const base = { runId: snapshot.runId, chain: chainPath(snapshot.runId) };
  switch (snapshot.state) {
    case 'working':
    case 'input-required':
      return { ...base, costUsd: snapshot.status.costUsd, usage: snapshot.status.usage };
    case 'ended': {
      const { answer: _answer, ...ending } = snapshot.ending;
      return {
        ...base,
        ...(snapshot.result ? { costUsd: snapshot.result.costUsd, usage: snapshot.result.usage } : {}),
        ...(ending.terminationReason ? { terminationReason: ending.terminationReason } : {}),
        ending,
      };
    }
    default:
      return base;
  }
}

/**
 * The task state of an ending: completed for a success and for a stop at a limit (stalled,
 * max_iterations, a budget, a timeout: the partial answer is the artifact, the reason in the
 * metadata), canceled for a run a person cancelled, failed for a failure, an error, and a run
 * Temporal ended without a result (terminated or timed out included).
 */
export function taskStateOf(ending: RunEnding): TaskState {
  // By tone, as MCP and AG-UI do: a termination is a stop by a person, like a cancel.
  switch (ending.tone) {
    case 'ok':
    case 'limit':
      return TASK_STATE.completed;
    case 'stopped':
      return TASK_STATE.canceled;
    case 'bad':
      return TASK_STATE.failed;
  }
}

/**
 * What the status message of an ended task says: a success's answer; otherwise the ending's
 * summary, the whole error when the summary holds only its first line, and the answer the run
 * gave under its title (a failure's answer is its reason, already in the summary).
 */
function endingText(ending: RunEnding): string {
  if (ending.terminationReason === 'success' && ending.answer) return ending.answer;
  const lines = [ending.summary];
  if (ending.error && !ending.summary.endsWith(ending.error)) lines.push(ending.error);
  if (ending.answer && ending.terminationReason !== 'failure') lines.push(`${ending.answerTitle}: ${ending.answer}`);
  else if (!ending.answer && ending.state === 'completed')
    lines.push('The run gave no answer; its chain says how far it got.');
  return lines.join('\n\n');
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
      const { input } = snapshot;
      // A message id per thing waited for: a new pause (a later one of the same run) is a new message.
      const key =
        input.kind === 'approval'
          ? input.record.callId
          : input.kind === 'question'
            ? input.callId
            : `budget-${input.pause.pausedAt}`;
      return {
        state: TASK_STATE.inputRequired,
        message: agentMessage(runId, contextId, `input-${key}`, inputParts(snapshot.input)),
        timestamp: at,
      };
    }
    case 'ended': {
      const { ending } = snapshot;
      return {
        state: taskStateOf(ending),
        message: agentMessage(runId, contextId, ending.label, [textPart(endingText(ending))]),
        timestamp: at,
      };
    }
  }
}

/**
 * The answer of a run that ended with one and did not fail: a text part titled as every view
 * titles it ("Final answer", "Partial answer (max_iterations)", …), and the `thoughtline` metadata.
 */
export function artifactOf(snapshot: RunSnapshot): Artifact | undefined {
  if (snapshot.state !== 'ended') return undefined;
  const { ending } = snapshot;
  if (!ending.answer || ending.state === 'failed') return undefined;
  const final = ending.terminationReason === 'success';
  return {
    artifactId: final ? 'final-answer' : 'partial-answer',
    name: ending.answerTitle ?? (final ? 'Final answer' : 'Answer'),
    description: final
      ? 'The run’s final answer; its reasoning chain is the reasoning-chain artifact, whole at metadata.thoughtline.chain.'
      : `What the run gave before it ended ${ending.label}; metadata.thoughtline.ending says why, its chain is the reasoning-chain artifact, whole at metadata.thoughtline.chain.`,
    parts: [textPart(ending.answer)],
    metadata: { thoughtline: metadataOf(snapshot) },
    extensions: [],
  };
}

/** The task's artifacts: the answer (artifactOf), then the chain in the caller's view (chainArtifactOf). */
export function artifactsOf(snapshot: RunSnapshot): Artifact[] {
  const answer = artifactOf(snapshot);
  const chain = chainArtifactOf(snapshot, { thoughtline: metadataOf(snapshot) });
  return [...(answer ? [answer] : []), ...(chain ? [chain] : [])];
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
    artifacts: artifactsOf(snapshot),
    history: options.historyLength === 0 ? [] : kept,
    metadata: { thoughtline: metadataOf(snapshot) },
  };
}
