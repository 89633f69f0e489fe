import type { AgentResult } from '../shared';
import type { WatchEvent } from '../client/agent-client';
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
