import type { AgentResult } from '../shared';
import type { WatchEvent } from '../client/agent-client';
import { dashboardFits, showDashboard, type DashboardSource, type Followed } from './dashboard/show-dashboard';
import { renderLive, renderStep } from './render/render-step';
import { writeSafe } from './render/terminal-safe';

/**
 * Prints what `AgentClient.follow` yields: one line per step, and streaming model text inline
 * (dimmed) until the step it belongs to lands.
 */
export async function printFollowed(
  events: AsyncGenerator<WatchEvent, AgentResult>,
  out: NodeJS.WritableStream,
): Promise<AgentResult> {
  let liveOpen = false;
  let next = await events.next();
  for (; !next.done; next = await events.next()) {
    const event = next.value;
    if (event.type === 'live') {
      writeSafe(out, renderLive(event.kind, event.text, !liveOpen));
      liveOpen = true;
      continue;
    }
    if (liveOpen) out.write('\n');
    liveOpen = false;
    writeSafe(out, `${renderStep(event.step)}\n`);
  }
  if (liveOpen) out.write('\n');
  return next.value;
}

/**
 * The dashboard (src/cli/dashboard) when `dashboard` is given and `out` suits it (a terminal at
 * least 60 columns wide, NO_COLOR unset), else the lines of `printFollowed`. The caller calls
 * `close` however following ends, so the terminal is always given back.
 */
export function followOnScreen(
  events: AsyncGenerator<WatchEvent, AgentResult>,
  out: NodeJS.WritableStream,
  dashboard?: DashboardSource,
): Followed {
  if (dashboard && dashboardFits(out)) return showDashboard(events, out as NodeJS.WriteStream, dashboard);
  return { result: printFollowed(events, out), close: () => {}, notice: () => false };
}
