import { useCallback, useEffect, useRef, useState } from 'react';
import type { RunEnding } from './api-types';
import { followStream, type StreamState } from './follow-stream';
import type { SseMessage } from './sse-parser';
import type { ThoughtlineApiError } from './thoughtline-api-error';
import type { ThoughtlineClient } from './thoughtline-client';
import { useThoughtline } from './thoughtline-provider';

/** Turns a thread hook keeps, the newest (the server's thread keeps its last 50 too). */
export const MAX_THREAD_TURNS = 50;

/** What a turn's run waits for, as AG-UI's RUN_FINISHED interrupt names it (docs/ag-ui.md). */
export interface ThreadInterrupt {
  id: string;
  /** `tool_approval`, `question`, or a paused budget's. */
  reason: string;
  message?: string;
  toolCallId?: string;
  metadata?: { thoughtline?: { toolName?: string; arguments?: Record<string, unknown> } };
}

/** One user message of the thread and the agent's reply, as the AG-UI stream reported them. */
export interface ThreadTurn {
  /** The AG-UI run id sent with the message: the turn's idempotency key. */
  turnId: string;
  text: string;
  /** The Thoughtline run of this turn (`thread-…-turn-n`), once the stream named it. */
  runId?: string;
  /** The reply's text as it streamed (the model's messages of this turn). */
  reply: string;
  state: 'sending' | 'streaming' | 'done' | 'interrupted' | 'cancelled' | 'failed';
  stream: StreamState;
  /** The run's ending in your view (`answer`, `summary`), once it finished. */
  ending?: RunEnding;
  /** What the run waits for (approvals, a question), when it finished with an interrupt: `answer` them. */
  interrupts?: ThreadInterrupt[];
  error?: ThoughtlineApiError | { message: string; code?: string };
}

/** An answer to an interrupt: `{ approved, reason? }` for an approval, `{ text }` for a question. */
export interface InterruptAnswer {
  interruptId: string;
  payload: { approved: boolean; reason?: string } | { text: string };
}

interface AgUiEvent {
  type?: string;
  messageId?: string;
  delta?: string;
  message?: string;
  code?: string;
  outcome?: { type?: string; interrupts?: ThreadInterrupt[] };
  result?: RunEnding;
  metadata?: { thoughtline?: { runId?: string; ending?: RunEnding } };
}

type Patch = (turn: ThreadTurn) => Partial<ThreadTurn>;

/**
 * Streams one request of a turn (a message, or answers to its interrupts) into that turn. A drop
 * resumes from the turn's run (`GET /v1/runs/{run}/ag-ui`, Last-Event-ID), or, before the stream
 * named the run, posts the same request again (same AG-UI run id: the server starts nothing new).
 */
function followTurn(
  client: ThoughtlineClient,
  agent: string,
  body: string,
  known: { runId?: string },
  change: (patch: Patch) => void,
  signal: AbortSignal,
): Promise<void> {
  let runId = known.runId;
  const messages = new Map<string, string>();
  const replyText = (): string => [...messages.values()].join('\n\n').slice(-client.limits.maxLiveTextChars);

  const read = (message: SseMessage): boolean => {
    let event: AgUiEvent;
    try {
      event = JSON.parse(message.data) as AgUiEvent;
    } catch {
      return false;
    }
    switch (event.type) {
      case 'RUN_STARTED':
        runId = event.metadata?.thoughtline?.runId ?? runId;
        change(() => ({ state: 'streaming', ...(runId ? { runId } : {}) }));
        return false;
      case 'TEXT_MESSAGE_START':
        if (event.messageId) messages.set(event.messageId, '');
        return false;
      case 'TEXT_MESSAGE_CONTENT':
        if (event.messageId && typeof event.delta === 'string') {
          messages.set(event.messageId, (messages.get(event.messageId) ?? '') + event.delta);
          const reply = replyText();
          change(() => ({ reply }));
        }
        return false;
      case 'RUN_FINISHED': {
        const outcome = event.outcome?.type;
        change(() => ({
          state: outcome === 'interrupt' ? 'interrupted' : outcome === 'cancelled' ? 'cancelled' : 'done',
          ...(event.result ? { ending: event.result } : {}),
          interrupts: outcome === 'interrupt' ? (event.outcome?.interrupts ?? []) : [],
        }));
        return true;
      }
      case 'RUN_ERROR': {
        const ending = event.metadata?.thoughtline?.ending;
        change(() => ({
          state: 'failed',
          ...(ending ? { ending } : {}),
          error: { message: event.message ?? 'The run failed.', ...(event.code ? { code: event.code } : {}) },
        }));
        return true;
      }
      default:
        return false;
    }
  };

  return followStream({
    request: (lastEventId) =>
      runId && lastEventId
        ? {
            url: client.url(`/v1/runs/${encodeURIComponent(runId)}/ag-ui`),
            init: { headers: client.headers({ accept: 'text/event-stream', 'last-event-id': lastEventId }) },
          }
        : {
            url: client.url(`/v1/ag-ui/${encodeURIComponent(agent)}`),
            init: {
              method: 'POST',
              headers: client.headers({ accept: 'text/event-stream', 'content-type': 'application/json' }),
              body,
            },
          },
    onMessage: read,
    onState: (stream, error) => change(() => ({ stream, ...(error ? { state: 'failed' as const, error } : {}) })),
    maxEventChars: client.limits.maxEventChars,
    signal,
  });
}

/**
 * A durable conversation over AG-UI (`POST /v1/ag-ui/{agent}`, docs/ag-ui.md "Threads"): `send`
 * delivers a user message as the thread's next turn and streams the reply; `answer` answers the
 * interrupts a turn stopped at (an approval, a question) and streams the rest of it. The server
 * keeps the thread; this hook keeps only the turns it sent while mounted.
 */
export function useThread(threadId: string, options: { agent?: string } = {}) {
  const client = useThoughtline();
  const agent = options.agent ?? 'agent';
  const [turns, setTurns] = useState<readonly ThreadTurn[]>([]);
  const controllers = useRef(new Set<AbortController>());

  useEffect(() => {
    const open = controllers.current;
    setTurns([]);
    return () => {
      for (const controller of open) controller.abort();
      open.clear();
    };
  }, [client, threadId, agent]);

  /** Posts `request` (an AG-UI RunAgentInput without the fields every request repeats) for turn `turnId`. */
  const post = useCallback(
    (turnId: string, request: Record<string, unknown>, known: { runId?: string }): void => {
      const change = (patch: Patch): void =>
        setTurns((all) => all.map((t) => (t.turnId === turnId ? { ...t, ...patch(t) } : t)));
      const controller = new AbortController();
      controllers.current.add(controller);
      const body = JSON.stringify({ threadId, tools: [], context: [], state: {}, forwardedProps: {}, ...request });
      void followTurn(client, agent, body, known, change, controller.signal).finally(() =>
        controllers.current.delete(controller),
      );
    },
    [client, threadId, agent],
  );

  const send = useCallback(
    (text: string): string => {
      const turnId = crypto.randomUUID();
      const turn: ThreadTurn = { turnId, text, reply: '', state: 'sending', stream: 'connecting' };
      setTurns((all) => [...all, turn].slice(-MAX_THREAD_TURNS));
      post(turnId, { runId: turnId, messages: [{ id: turnId, role: 'user', content: text }] }, {});
      return turnId;
    },
    [post],
  );

  const answer = useCallback(
    (turn: ThreadTurn, answers: readonly InterruptAnswer[]): void => {
      setTurns((all) => all.map((t) => (t.turnId === turn.turnId ? { ...t, state: 'sending', interrupts: [] } : t)));
      post(
        turn.turnId,
        {
          // A new AG-UI run id for the resume: the message's was the turn's.
          runId: crypto.randomUUID(),
          messages: [],
          resume: answers.map((a) => ({ interruptId: a.interruptId, status: 'resolved', payload: a.payload })),
        },
        turn.runId ? { runId: turn.runId } : {},
      );
    },
    [post],
  );

  const last = turns[turns.length - 1];
  return {
    turns,
    /** True while the last turn has not finished: the server refuses a new message until it does (409). */
    busy: last !== undefined && (last.state === 'sending' || last.state === 'streaming'),
    send,
    answer,
  };
}
