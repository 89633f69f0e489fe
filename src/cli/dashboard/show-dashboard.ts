import type { AgentResult, AgentStatus } from '../../domain';
import type { WatchEvent } from '../../client/agent-client';
import {
  startDashboard,
  withLive,
  withResult,
  withStatus,
  withStep,
  withSubAgentStatus,
  withWarning,
  type DashboardState,
} from './dashboard-state';
import { enterLiveScreen } from './live-screen';
import { renderDashboard, renderEnding } from './render-dashboard';

/** At most 10 redraws a second, however fast steps and streamed text arrive. */
const FRAME_MS = 100;
/** The clock ticks once a second: the elapsed time, and the status reads' pace. */
const TICK_MS = 1_000;
/** Status reads are queries (billable on Temporal Cloud): one a second at most, and only after new steps, else every 10 s. */
const IDLE_STATUS_TICKS = 10;
/** A running sub-agent's own status is read every 2 s, for at most this many children. */
const CHILD_STATUS_TICKS = 2;
const MAX_CHILDREN_READ = 3;
/** The final frame printed to the scrollback may be this tall (the whole task list, most runs). */
const FINAL_FRAME_ROWS = 60;

export interface DashboardSource {
  workflowId: string;
  goal: string;
  /** The `status` query for a run (the followed one or a child); failures skip a beat. */
  readStatus?: (workflowId: string) => Promise<AgentStatus>;
}

export interface Followed {
  result: Promise<AgentResult>;
  /** Gives the terminal back (main screen, cursor shown) and prints the last frame as lines; idempotent. */
  close(): void;
  /** Shows a warning the caller would log (stall advice); false when the caller must print it itself (lines, or closed). */
  notice(text: string): boolean;
}

/** Whether the dashboard suits `out`: a terminal, colours allowed (NO_COLOR asks for plain lines), at least 60×12. */
export function dashboardFits(out: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): boolean {
  const tty = out as NodeJS.WriteStream;
  return (
    tty.isTTY === true &&
    !env['NO_COLOR'] &&
    env['TERM'] !== 'dumb' &&
    (tty.columns ?? 0) >= 60 &&
    (tty.rows ?? 0) >= 12
  );
}

/**
 * Follows `events` on a screen redrawn in place (live-screen.ts), from the steps as they land,
 * the streamed model text, and the run's status read at a modest pace. Resolves with the run's
 * result; `close` must be called when the caller stops (the end, Ctrl-C, a stopped worker).
 */
export function showDashboard(
  events: AsyncGenerator<WatchEvent, AgentResult>,
  out: NodeJS.WriteStream,
  source: DashboardSource,
): Followed {
  let state: DashboardState = startDashboard(source.workflowId, source.goal, Date.now());
  const screen = enterLiveScreen(out);
  let closed = false;
  let lastFrame = 0;
  let pending: NodeJS.Timeout | undefined;
  const size = () => ({ width: out.columns ?? 80, height: out.rows ?? 24, color: true, nowMs: Date.now() });
  const draw = (): void => {
    pending = undefined;
    lastFrame = Date.now();
    const now = size();
    screen.draw(renderDashboard(state, now), now.height);
  };
  const redraw = (): void => {
    if (closed || pending) return;
    const wait = FRAME_MS - (Date.now() - lastFrame);
    if (wait <= 0) draw();
    else pending = setTimeout(draw, wait);
  };
  const statusReads = readStatusPaced(
    source,
    () => state,
    (next) => ((state = next), redraw()),
  );
  const clock = setInterval(() => {
    statusReads.tick();
    redraw();
  }, TICK_MS);
  out.on('resize', draw);
  draw();

  const result = (async () => {
    let next = await events.next();
    for (; !next.done && !closed; next = await events.next()) {
      const event = next.value;
      if (event.type === 'step') state = withStep(state, event.step);
      else if (event.type === 'live') state = withLive(state, event.text);
      if (event.type === 'step') statusReads.stepLanded();
      redraw();
    }
    if (next.done) state = withResult(state, next.value);
    else await events.return(undefined as never);
    return next.done ? next.value : new Promise<AgentResult>(() => {});
  })();

  const close = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(clock);
    clearTimeout(pending);
    out.off('resize', draw);
    screen.leave();
    // The scrollback keeps the last frame, then the answer whole: the result is there after the screen is gone.
    // With the answer under it, the frame leaves out its first lines and the thought that led to it.
    const framed = state.ending ? { ...state, ending: undefined, thought: undefined } : state;
    const frame = renderDashboard(framed, { ...size(), height: FINAL_FRAME_ROWS });
    const ending = renderEnding(state, size());
    out.write(`${[...frame, ...ending].join('\n')}\n`);
  };
  const notice = (text: string): boolean => {
    if (closed) return false;
    state = withWarning(state, text);
    redraw();
    return true;
  };
  return {
    result: result.then((r) => (close(), r)),
    close,
    notice,
  };
}

/** Status reads for the run and its running children, at the pace the constants above set. */
function readStatusPaced(
  source: DashboardSource,
  current: () => DashboardState,
  update: (next: DashboardState) => void,
): { tick(): void; stepLanded(): void } {
  let ticks = 0;
  let sinceRead = IDLE_STATUS_TICKS;
  let fresh = true;
  let reading = false;
  let failedInARow = 0;
  const read = async (): Promise<void> => {
    const { readStatus, workflowId } = source;
    if (!readStatus || reading) return;
    reading = true;
    try {
      if (fresh || sinceRead >= IDLE_STATUS_TICKS) {
        const askedBySteps = fresh;
        fresh = false;
        sinceRead = 0;
        try {
          update(withStatus(current(), await readStatus(workflowId)));
          failedInARow = 0;
        } catch (error) {
          // A read new steps asked for is tried once more at the next tick, not 10 s later; one that
          // fails again waits for the next step or the idle pace (a query is billable).
          failedInARow += 1;
          if (failedInARow === 1) fresh ||= askedBySteps;
          throw error;
        }
      }
      if (ticks % CHILD_STATUS_TICKS === 0)
        for (const child of current()
          .subAgents.filter((s) => s.status === 'running')
          .slice(0, MAX_CHILDREN_READ))
          update(withSubAgentStatus(current(), child.workflowId, await readStatus(child.workflowId)));
    } catch {
      // A status read is a courtesy: a run between tasks, a busy server, skip a beat.
    } finally {
      reading = false;
    }
  };
  return {
    tick: () => {
      ticks += 1;
      sinceRead += 1;
      void read();
    },
    stepLanded: () => (fresh = true),
  };
}
