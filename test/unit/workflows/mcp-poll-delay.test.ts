import { describe, expect, it } from 'vitest';
import {
  FIRST_MCP_POLL_MS,
  MAX_MCP_POLL_INTERVAL_MS,
  nextMcpPollDelay,
} from '../../../src/workflows/tools/mcp-task-wait';

const HOUR_MS = 3_600_000;

/** The waits of a run parked `totalMs` on a task the server gives `serverMs` between polls. */
function waits(totalMs: number, serverMs?: number): number[] {
  const out: number[] = [];
  let last: number | undefined;
  let spent = 0;
  while (spent < totalMs) {
    last = nextMcpPollDelay(last, serverMs, totalMs - spent);
    out.push(last);
    spent += last;
  }
  return out;
}

describe('nextMcpPollDelay', () => {
  it('starts at 1 s and doubles to the 5-minute cap', () => {
    expect(waits(HOUR_MS).slice(0, 11)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300].map((s) => s * 1_000));
    expect(FIRST_MCP_POLL_MS).toBe(1_000);
    expect(MAX_MCP_POLL_INTERVAL_MS).toBe(300_000);
  });

  it('polls an hour parked 20 times, and a day under 300 times', () => {
    expect(waits(HOUR_MS)).toHaveLength(20);
    expect(waits(24 * HOUR_MS).length).toBeLessThan(300);
  });

  it('never polls sooner than the server asks, even past the cap, nor past the deadline', () => {
    expect(nextMcpPollDelay(undefined, 10_000, HOUR_MS)).toBe(10_000);
    expect(nextMcpPollDelay(300_000, 900_000, HOUR_MS)).toBe(900_000);
    expect(nextMcpPollDelay(300_000, undefined, 42_000)).toBe(42_000);
    expect(nextMcpPollDelay(300_000, 900_000, 0)).toBe(0);
  });
});
