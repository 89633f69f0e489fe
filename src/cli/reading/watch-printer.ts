import type { AgentResult, ReasoningStep } from '../../domain';
import type { WatchEvent } from '../../client/agent-client';
import { dashboardFits, showDashboard, type DashboardSource, type Followed } from '../dashboard/show-dashboard';
import { answeringModels, renderLive, renderStep, renderToolProgress } from '../render/render-step';
import { writeSafe } from '../render/terminal-safe';

/**
 * Prints what `AgentClient.follow` yields: one line per step, a line per tool progress, and streaming model text inline
 * (dimmed) until the step it belongs to lands. A model call's line waits for the next step, its
 * reply, so that it names the model that answered (a fallback, the offline model); text streaming
 * first prints it at once, with the model asked.
 */
export async function printFollowed(
  events: AsyncGenerator<WatchEvent, AgentResult>,
  out: NodeJS.WritableStream,
): Promise<AgentResult> {
  let liveOpen = false;
  let held: ReasoningStep | undefined;
  const flush = (next?: ReasoningStep): void => {
    if (held) writeSafe(out, `${renderStep(held, next ? answeringModels([next]) : undefined)}\n`);
    held = undefined;
  };
  let next = await events.next();
  for (; !next.done; next = await events.next()) {
    const event = next.value;
    if (event.type === 'live') {
      flush();
      writeSafe(out, renderLive(event.kind, event.text, !liveOpen));
      liveOpen = true;
      continue;
    }
    if (liveOpen) out.write('\n');
    liveOpen = false;
    if (event.type === 'progress') {
      writeSafe(out, `${renderToolProgress(event)}\n`);
      continue;
    }
    flush(event.step);
    if (event.step.type === 'tool_call' && event.step.toolCall.toolType === 'llm') held = event.step;
    else writeSafe(out, `${renderStep(event.step)}\n`);
  }
  flush();
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
