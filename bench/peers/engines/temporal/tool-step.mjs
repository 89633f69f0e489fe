import { Context } from '@temporalio/activity';
import { observation } from '../lib/loop-script.mjs';

/** Heartbeat every second while a tool runs, as Thoughtline's runTool does (its timeout is 5 s). */
const HEARTBEAT_EVERY_MS = 1000;

/**
 * The tool step body both Temporal engines run as an activity: call n returns observation(n); the
 * call numbered `killAt` first sleeps `slowToolMs` (the recover scenario kills the worker then).
 * It heartbeats while it runs, so a dead worker is noticed within the heartbeat timeout instead of
 * the start-to-close timeout; an instant call ends before its first beat.
 */
export async function runToolStep({ n, config, mark }) {
  mark('tool', n, 'start');
  const ctx = Context.current();
  const beat = setInterval(() => ctx.heartbeat(), HEARTBEAT_EVERY_MS);
  try {
    if (n === config.killAt && config.slowToolMs > 0) await ctx.sleep(config.slowToolMs);
    const result = observation(n, config.observationBytes);
    mark('tool', n, 'end');
    return result;
  } finally {
    clearInterval(beat);
  }
}
