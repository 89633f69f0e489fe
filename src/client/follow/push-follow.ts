import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentResult, ReasoningStep } from '../../domain';
import type { LiveDelta } from '../chain/live-replies';
import { PushStreamError } from './push-stream-error';

/** A running tool's latest progress (`ctx.progress`), as the reader's view shows its call step. */
export interface LiveToolProgress {
  /** The tool call step. */
  stepId: string;
  toolName: string;
  seq: number;
  message?: string;
  fraction?: number;
}

/** What a follower yields: the same union as `AgentClient.follow` (declared there). */
export type PushedEvent =
  { type: 'step'; step: ReasoningStep } | ({ type: 'live' } & LiveDelta) | ({ type: 'progress' } & LiveToolProgress);

/** A `thoughtline serve` instance and the bearer token that identifies this client to it. */
export interface PushServer {
  url: string;
  token: string;
}

export interface PushFollowOptions {
  server: PushServer;
  /** Also yield model text as it streams. Default true. */
  live?: boolean;
  /** The run's result once the stream said it ended (from Temporal). */
  result(workflowId: string): Promise<AgentResult>;
  /** Connections in a row that may fail before following gives up. Default 6. */
  maxRetries?: number;
  /** The first wait before reconnecting; doubled per failure up to 5 s. Default 250 ms. */
  retryBaseMs?: number;
}

/** Statuses worth another try: the server is busy, restarting or at its cap of streams. */
const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);

interface SseMessage {
  event: string;
  id: string | undefined;
  data: string;
}

/** The messages of an SSE body, as EventSource parses them. */
async function* sseMessages(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseMessage> {
  // eventsource-parser is an ES module: loaded with import() from this CommonJS build.
  const { createParser } = await import('eventsource-parser');
  let parsed: SseMessage[] = [];
  const parser = createParser({ onEvent: (m) => parsed.push({ event: m.event ?? 'message', id: m.id, data: m.data }) });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    const ready = parsed;
    parsed = [];
    yield* ready;
  }
}

async function refusal(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string } };
    return `${body.error?.code ?? response.status}: ${body.error?.message ?? response.statusText}`;
  } catch {
    return `HTTP ${response.status} ${response.statusText}`;
  }
}

/**
 * Follows a run through the server's event stream (`GET /v1/runs/{id}/events`, developer view):
 * each step once, in order, and model text and tools' progress as they stream; the run's result once the stream ends.
 * It shows no sub-agent's steps, so it asks the server not to follow them (`subAgentSteps=false`).
 * A dropped connection is resumed with `Last-Event-ID`, so the server sends exactly the steps
 * missed; connections failing `maxRetries` times in a row, or a refusal (401, 403, 404), end
 * following with a PushStreamError.
 */
export async function* pushFollow(
  workflowId: string,
  options: PushFollowOptions,
): AsyncGenerator<PushedEvent, AgentResult> {
  const { server, live = true, maxRetries = 6, retryBaseMs = 250 } = options;
  const url = `${server.url.replace(/\/+$/, '')}/v1/runs/${encodeURIComponent(workflowId)}/events?view=developer&subAgentSteps=false`;
  let lastId: string | undefined;
  let failures = 0;
  let lastProblem = '';
  for (;;) {
    const abort = new AbortController();
    let ended = false;
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `Bearer ${server.token}` };
      if (lastId !== undefined) headers['last-event-id'] = lastId;
      const response = await fetch(url, { headers, signal: abort.signal });
      if (!response.ok || !response.body) {
        const problem = await refusal(response);
        if (!RETRYABLE_STATUS.has(response.status))
          throw new PushStreamError(
            `The server refused the event stream of ${workflowId}: ${problem}`,
            response.status,
          );
        throw new Error(problem);
      }
      for await (const message of sseMessages(response.body)) {
        failures = 0;
        if (message.id) lastId = message.id;
        const data = JSON.parse(message.data) as Record<string, unknown>;
        if (message.event === 'step') yield { type: 'step', step: data.step as ReasoningStep };
        else if (message.event === 'text_delta' && live) {
          const { activityId, attempt, kind, text } = data as unknown as LiveDelta;
          yield { type: 'live', activityId, attempt, kind, text };
        } else if (message.event === 'tool_progress' && live) {
          const { stepId, toolName, seq, message: line, fraction } = data as unknown as LiveToolProgress;
          yield {
            type: 'progress',
            stepId,
            toolName,
            seq,
            ...(typeof line === 'string' ? { message: line } : {}),
            ...(typeof fraction === 'number' ? { fraction } : {}),
          };
        } else if (message.event === 'end') {
          ended = true;
          break;
        }
      }
    } catch (err) {
      if (err instanceof PushStreamError) throw err;
      lastProblem = err instanceof Error ? err.message : String(err);
    } finally {
      abort.abort();
    }
    if (ended) return options.result(workflowId);
    failures += 1;
    if (failures > maxRetries)
      throw new PushStreamError(
        `Lost the event stream of ${workflowId} ${failures} times in a row${lastProblem ? ` (last: ${lastProblem})` : ''}.`,
      );
    await sleep(Math.min(retryBaseMs * 2 ** (failures - 1), 5_000));
  }
}
