import type { CallToolResult, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { AgentStatus } from '../domain';
import { ApiError } from '../server/api-error';
import type { ApiContext } from '../server/api-route';
import type { Identity } from '../server/auth/identity';
import { viewedStatus } from '../server/protocols/viewed-status';
import { closedRunEnding } from '../server/protocols/viewed-ending';
import type { RunFacts } from '../server/run-access';
import type { RunStreamHub } from '../server/events/run-stream-hub';
import type { StreamSignal } from '../server/events/run-stream';
import { elicitDecisions, howToDecide, type Elicit } from './elicit-decisions';
import { errorContent, resultContent } from './run-result-content';
import { thrownText } from '../tools/redact-secrets';

/** What one MCP request lets the server send back while the run goes on. */
export interface CallChannel {
  /** Aborted when the client cancels the request or goes away: the run goes on, unfollowed. */
  signal: AbortSignal;
  /** From the request's `_meta.progressToken`; no progress notifications without it. */
  progressToken?: string | number;
  sendNotification(notification: ServerNotification): Promise<void>;
  /** Absent when the client did not declare the elicitation capability. */
  elicit?: Elicit;
}

export interface FollowDeps {
  ctx: ApiContext;
  /** The server's watched runs: one bus subscription and safety net per run, shared by its followers. */
  hub: RunStreamHub;
  log: (line: string) => void;
}

/** What a step says in a progress notification: its number, kind and tool, never its content. */
function stepLine(signal: Extract<StreamSignal, { kind: 'step' }>): string {
  const { step } = signal;
  const tool = step.type === 'tool_call' ? ` ${step.toolCall.toolName}` : step.type === 'tool_result' ? ' result' : '';
  return `step ${step.stepNumber}: ${step.type}${tool}`;
}

/** The ended run as a tool result, from its ending in the caller's view and lens (closedRunEnding). */
export async function endedContent(
  ctx: ApiContext,
  identity: Identity,
  runId: string,
  known?: RunFacts,
): Promise<CallToolResult> {
  const { ending, result } = await closedRunEnding(ctx, identity, runId, known ? { known } : {});
  return resultContent(runId, ending, result);
}

/**
 * Follows a run the caller may reach until it ends, and returns its answer: each step that
 * lands is a progress notification; each approval or question it waits for is put to the client
 * (elicitation), or, for a client that cannot elicit, returned at once as how to decide. The
 * steps come from the run's event stream (the bus, with the stream's slow safety net for lost
 * events); the end from the same stream (a bus event, or the safety net seeing the run closed), never a
 * query loop, and no call left waiting on Temporal once the client is gone. A client that goes
 * away leaves the run going: `get_run` fetches it later.
 */
export async function followRun(
  deps: FollowDeps,
  identity: Identity,
  runId: string,
  channel: CallChannel,
): Promise<CallToolResult> {
  const { ctx, hub } = deps;
  const owner = { id: identity.id, ...(identity.tenant ? { tenant: identity.tenant } : {}) };
  const full = hub.fullFor(owner);
  if (full)
    return errorContent(
      `Run ${runId} started, but this server follows as many runs as it may for ${full === 'server' ? 'everyone' : `your ${full}`}; fetch its result later with get_run (runId ${runId}).`,
    );
  let wake: () => void = () => {};
  let ended = false;
  const pending: StreamSignal[] = [];
  const { stream, listener } = hub.join(runId, owner, () => ({
    signal: (s: StreamSignal) => {
      if (s.kind === 'event' && s.event.type === 'text_delta') return;
      if (s.kind === 'ended') ended = true;
      else if (pending.length < 1_000) pending.push(s);
      wake();
    },
  }));
  if (stream.ended !== undefined) ended = true;
  const aborted = new Promise<void>((resolve) =>
    channel.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  const asked = new Set<string>();
  let progress = 0;
  let lastStep = 0;
  const notify = async (message: string): Promise<void> => {
    if (channel.progressToken === undefined) return;
    progress += 1;
    await channel
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: channel.progressToken, progress, message },
      })
      .catch(() => undefined);
  };
  try {
    await notify(`run ${runId} started; if this call is cut off, get_run { "runId": "${runId}" } fetches its result`);
    let checkDecisions = true;
    for (;;) {
      if (channel.signal.aborted)
        return errorContent(`Stopped following run ${runId}; it goes on (get_run fetches it).`);
      for (const s of pending.splice(0)) {
        if (s.kind === 'step' && s.step.stepNumber > lastStep) {
          lastStep = s.step.stepNumber;
          await notify(stepLine(s));
        } else if (s.kind === 'steps-exist') {
          // The safety net saw steps no event carried (no worker publishes here): their count, not their kind.
          // MAX_SAFE_INTEGER only says "catch up": no count to report.
          if (s.upTo > lastStep && s.upTo < Number.MAX_SAFE_INTEGER) {
            await notify(`steps up to ${s.upTo} landed`);
            lastStep = s.upTo;
          }
          checkDecisions = true;
        } else if (s.kind !== 'step') checkDecisions = true;
      }
      if (ended) return await endedContent(ctx, identity, runId);
      if (checkDecisions) {
        checkDecisions = false;
        const left = await askDecisions(deps, identity, runId, channel, asked);
        if (left) return left;
      }
      if (pending.length > 0 || ended) continue;
      await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted]);
    }
  } finally {
    hub.leave(stream, listener);
  }
}

/**
 * Reads what the run waits for now and puts it to the client; a result to return at once when the
 * client cannot elicit or dismissed a request (the run keeps waiting), else undefined.
 */
async function askDecisions(
  deps: FollowDeps,
  identity: Identity,
  runId: string,
  channel: CallChannel,
  asked: Set<string>,
): Promise<CallToolResult | undefined> {
  const { ctx } = deps;
  let status: AgentStatus;
  try {
    status = await viewedStatus(ctx, identity, await ctx.accessRun(identity, runId));
  } catch {
    // A run whose first task has not run yet has no status: its stream says when it moves.
    return undefined;
  }
  if (status.pendingApprovals.length === 0 && !status.openQuestion) return undefined;
  if (!channel.elicit)
    return {
      content: [{ type: 'text', text: howToDecide(runId, status) }],
      structuredContent: { runId, state: 'waiting' },
    };
  try {
    const outcome = await elicitDecisions(ctx, identity, runId, status, channel.elicit, asked);
    if (outcome.kind === 'left')
      return {
        content: [{ type: 'text', text: `You left ${outcome.what} undecided.\n${howToDecide(runId, status)}` }],
        structuredContent: { runId, state: 'waiting' },
      };
  } catch (err) {
    // Decided elsewhere meanwhile, or refused by the run: its next state says what follows.
    if (err instanceof ApiError && err.code === 'conflict') return undefined;
    if (err instanceof ApiError) return errorContent(`Run ${runId}: ${err.message}`);
    // The client did not answer in time, or went away: the run keeps waiting, decided elsewhere.
    deps.log(`mcp-server: a decision for ${runId} was not made here: ${thrownText(err)}`);
    return {
      content: [{ type: 'text', text: howToDecide(runId, status) }],
      structuredContent: { runId, state: 'waiting' },
    };
  }
  return undefined;
}
