import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentResult, AgentStatus, ReasoningStep } from '../../src/domain';
import type { WatchEvent } from '../../src/client/agent-client';
import { showDashboard } from '../../src/cli/dashboard/show-dashboard';
import { followOnScreen } from '../../src/cli/reading/watch-printer';

/** A terminal-like stream that records what was written. */
function fakeTerminal(isTTY = true) {
  const stream = Object.assign(new EventEmitter(), {
    isTTY,
    columns: 100,
    rows: 30,
    written: '',
    write(chunk: string) {
      stream.written += chunk;
      return true;
    },
  });
  return stream;
}

const ANSWER = `The stock is 42 units.\n\n${'The ledger shows no discrepancy this month. '.repeat(6).trim()}\n- item one\n- item two`;
const RESULT = {
  success: true,
  finalAnswer: ANSWER,
  grounding: 'grounded',
  terminationReason: 'success',
  iterations: 2,
  costUsd: 0.25,
  usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
} as unknown as AgentResult;

/** The status query's answer for a run in its first iteration of 7. */
const thinkingStatus = async (): Promise<AgentStatus> =>
  ({
    status: 'thinking',
    iteration: 1,
    maxIterations: 7,
    steps: 1,
    usage: RESULT.usage,
    costUsd: 0.1,
    subAgents: [],
  }) as unknown as AgentStatus;

const thought = (n: number): WatchEvent => ({
  type: 'step',
  step: {
    type: 'thinking',
    stepId: `s${n}`,
    stepNumber: n,
    iteration: 1,
    timestamp: '2026-01-01T00:00:00.000Z',
    visibility: { level: 'full' },
    thought: `thought number ${n}`,
  } as ReasoningStep,
});

/** Yields `events`, waiting `gapMs` (fake time) before each, then returns `result`. */
async function* scripted(events: WatchEvent[], gapMs: number): AsyncGenerator<WatchEvent, AgentResult> {
  for (const e of events) {
    await new Promise((r) => setTimeout(r, gapMs));
    yield e;
  }
  return RESULT;
}

/** Words wrapped to `width` columns, as a reader expects them. */
const wrapped = (text: string, width: number): string[] =>
  text.split(' ').reduce<string[]>((lines, word) => {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
    return lines;
  }, []);

const frames = (written: string): number => written.split('\x1b[1;1H').length - 1;

afterEach(() => vi.useRealTimers());

describe('showDashboard', () => {
  it('enters the alternate screen, redraws at most 10 times a second, and at the end gives the terminal back with the last frame in the scrollback', async () => {
    vi.useFakeTimers();
    const out = fakeTerminal();
    const status = vi.fn(thinkingStatus);
    // 100 steps 15 ms apart: a second and a half of events.
    const shown = showDashboard(
      scripted(
        Array.from({ length: 100 }, (_, i) => thought(i + 1)),
        15,
      ),
      out as unknown as NodeJS.WriteStream,
      { workflowId: 'agent-1', goal: 'the goal', readStatus: status },
    );
    await vi.advanceTimersByTimeAsync(2_000);
    const result = await shown.result;
    expect(result).toBe(RESULT);
    expect(out.written.startsWith('\x1b[?1049h\x1b[?25l')).toBe(true);
    // 1.5 s of events: at most 10 frames a second (and the first), far fewer than events.
    expect(frames(out.written)).toBeLessThanOrEqual(16);
    expect(frames(out.written)).toBeGreaterThanOrEqual(3);
    // Status reads: one at once, then at most one a second.
    expect(status.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(status.mock.calls.length).toBeLessThanOrEqual(3);
    const leave = out.written.lastIndexOf('\x1b[?25h\x1b[?1049l');
    expect(leave).toBeGreaterThan(0);
    const scrollback = out.written.slice(leave);
    expect(scrollback).toContain('Status: ended (success)');
    expect(scrollback).toContain('Iteration 2/7');
    // Under the frame, the answer whole, wrapped to the box's width, its paragraphs and list kept.
    const below = scrollback.slice(scrollback.indexOf('\n', scrollback.lastIndexOf('┘')) + 1);
    expect(below.replace(/\x1b\[[0-9;]*m/g, '')).toBe(
      [
        'Final answer:',
        'The stock is 42 units.',
        '',
        ...wrapped('The ledger shows no discrepancy this month. '.repeat(6).trim(), 100),
        '- item one',
        '- item two',
        '',
      ].join('\n'),
    );
    // The frame leaves the thought that led to it out: the answer follows.
    expect(scrollback).not.toContain('thought number 100');
    // Nothing is drawn after the terminal was given back, and closing again writes nothing.
    const length = out.written.length;
    shown.close();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(out.written.length).toBe(length);
  });

  it('tries a failed status read once more at the next tick, then at the idle pace', async () => {
    vi.useFakeTimers();
    const out = fakeTerminal();
    const status = vi
      .fn(thinkingStatus)
      .mockRejectedValueOnce(new Error('query timed out'))
      .mockRejectedValueOnce(new Error('query timed out'));
    const open = (async function* (): AsyncGenerator<WatchEvent, AgentResult> {
      yield thought(1);
      await new Promise(() => {});
      return RESULT;
    })();
    const shown = showDashboard(open, out as unknown as NodeJS.WriteStream, {
      workflowId: 'agent-1',
      goal: 'g',
      readStatus: status,
    });
    // The first read (1 s) fails, the retry (2 s) fails too; then none until the idle pace's (12 s).
    await vi.advanceTimersByTimeAsync(2_500);
    expect(status).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(9_000);
    expect(status).toHaveBeenCalledTimes(2);
    expect(out.written).not.toContain('Iteration 1/7');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(status).toHaveBeenCalledTimes(3);
    expect(out.written).toContain('Iteration 1/7');
    shown.close();
  });

  it('closed early (Ctrl-C), leaves the alternate screen once and shows the cursor, also at process exit', async () => {
    const out = fakeTerminal();
    const never = (async function* (): AsyncGenerator<WatchEvent, AgentResult> {
      yield thought(1);
      await new Promise(() => {});
      return RESULT;
    })();
    const shown = showDashboard(never, out as unknown as NodeJS.WriteStream, { workflowId: 'agent-1', goal: 'g' });
    await new Promise((r) => setTimeout(r, 150));
    expect(process.listeners('exit').length).toBeGreaterThan(0);
    expect(shown.notice('No worker has taken its next task')).toBe(true);
    await new Promise((r) => setTimeout(r, 150));
    expect(out.written).toContain('! No worker has taken its next task');
    shown.close();
    shown.close();
    // Once the screen is gone, the caller prints warnings itself.
    expect(shown.notice('later')).toBe(false);
    expect(out.written.split('\x1b[?25h\x1b[?1049l').length - 1).toBe(1);
    expect(out.written.slice(out.written.lastIndexOf('\x1b[?1049l'))).toContain('thought number 1');
  });
});

describe('followOnScreen', () => {
  it('prints lines, not the dashboard, when stdout is not a terminal', async () => {
    const out = fakeTerminal(false);
    const shown = followOnScreen(scripted([thought(1)], 0), out as unknown as NodeJS.WritableStream, {
      workflowId: 'agent-1',
      goal: 'g',
    });
    await shown.result;
    shown.close();
    expect(out.written).not.toContain('\x1b[?1049h');
    expect(out.written).toMatch(/ 1 Thought +thought number 1\n/);
  });
});
