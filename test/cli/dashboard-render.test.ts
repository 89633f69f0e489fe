import { describe, expect, it } from 'vitest';
import type { AgentStatus, ReasoningStep } from '../../src/domain';
import type { WatchEvent } from '../../src/client/agent-client';
import {
  dashboardState,
  startDashboard,
  withResult,
  withSubAgentStatus,
  withWarning,
} from '../../src/cli/dashboard/dashboard-state';
import { renderDashboard, renderEnding } from '../../src/cli/dashboard/render-dashboard';
import { textWidth } from '../../src/cli/dashboard/text-width';
import { dashboardFits } from '../../src/cli/dashboard/show-dashboard';

const base = { timestamp: '2026-01-01T00:00:00.000Z', visibility: { level: 'full' as const } };
let n = 0;
const step = (s: Record<string, unknown>): WatchEvent => {
  n += 1;
  return { type: 'step', step: { stepId: `s${n}`, stepNumber: n, iteration: 1, ...base, ...s } as ReasoningStep };
};

const TASKS = [
  { id: 't1', description: 'Reproduce bug', status: 'completed', dependencies: [] },
  { id: 't2', description: 'Read auth.py', status: 'completed', dependencies: [] },
  { id: 't3', description: 'Identify root cause', status: 'in_progress', dependencies: ['t1', 't2'] },
  { id: 't4', description: 'Implement fix', status: 'pending', dependencies: ['t3'] },
  { id: 't5', description: 'Test fix', status: 'failed', dependencies: ['t4'] },
  { id: 't6', description: 'Ship it', status: 'blocked', dependencies: ['t5'] },
];

const STATUS: AgentStatus = {
  status: 'tool_calling',
  iteration: 3,
  maxIterations: 15,
  steps: 9,
  usage: { inputTokens: 1200, outputTokens: 345, cacheReadTokens: 0, cacheWriteTokens: 0 },
  costUsd: 0.0123,
  model: 'offline',
  continuations: 0,
  pendingApprovals: [],
  subAgents: [
    {
      callId: 'c9',
      agentName: 'researcher',
      workflowId: 'agent-1/sub-9',
      status: 'running',
      budget: { maxIterations: 8 },
    },
  ],
};

function sampleEvents(thought: string): WatchEvent[] {
  n = 0;
  return [
    step({
      type: 'thinking',
      purpose: 'plan',
      thought: 'Planned',
      plan: { tasks: TASKS.map((t) => ({ ...t, requiredTools: [] })), source: 'model', version: 1 },
    }),
    step({ type: 'thinking', thought }),
    step({
      type: 'tool_call',
      toolCall: {
        toolType: 'external',
        toolName: 'file_read',
        arguments: { path: 'auth.py:45-60' },
        correlationId: 'c1',
      },
    }),
  ];
}

const state = (thought = 'The bug appears to be in the password validation regex.') =>
  dashboardState(startDashboard('agent-1', 'Fix login bug with special characters', 0), sampleEvents(thought), STATUS);

const SIZE = { width: 100, height: 40, color: false, nowMs: 12_000 };

describe('renderDashboard', () => {
  it("draws the seed's box: goal, iteration of the maximum, progress bar, tasks with marks and dependencies, thought, action, sub-agents, cost", () => {
    const lines = renderDashboard(state(), SIZE);
    const text = lines.join('\n');
    expect(lines[0]).toMatch(/^┌─ Thoughtline · agent-1 ─+ 0:12 ─┐$/);
    expect(text).toContain('Goal: Fix login bug with special characters');
    expect(text).toMatch(/Iteration 3\/15 \| Progress: 33% \[█+░+\] 2\/6 tasks/);
    expect(text).toMatch(/✓ t1: Reproduce bug +\[COMPLETED\]/);
    expect(text).toMatch(/▶ t3: Identify root cause {2}after t1, t2 +\[IN PROGRESS\]/);
    expect(text).toMatch(/⋯ t4: Implement fix {2}after t3 +\[PENDING\]/);
    expect(text).toMatch(/✗ t5: .*\[FAILED\]/);
    expect(text).toMatch(/⊘ t6: .*\[BLOCKED\]/);
    expect(text).toContain('"The bug appears to be in the password validation regex."');
    expect(text).toContain('Action: Using tool [file_read] {"path":"auth.py:45-60"} (running)');
    expect(text).toContain('▶ researcher running');
    expect(text).toContain('Cost so far: $0.0123 · 1,545 tokens (1,200 in, 345 out) · 9 steps');
    expect(lines.at(-1)).toMatch(/^└─+┘$/);
  });

  it('makes every line exactly the box width, clipping a long goal with …', () => {
    const long = dashboardState(startDashboard('agent-1', 'word '.repeat(100), 0), sampleEvents('x'), STATUS);
    for (const width of [60, 80, 100, 200]) {
      const lines = renderDashboard(long, { ...SIZE, width });
      for (const line of lines) expect(textWidth(line)).toBe(Math.min(width, 110));
      expect(lines.find((l) => l.includes('Goal:'))).toContain('…');
    }
  });

  it('keeps the status label in its column when a task has a long description and many dependencies', () => {
    const deps = Array.from({ length: 40 }, (_, i) => `task_${i}`);
    const long = {
      ...state(),
      plan: {
        version: 1,
        completed: 0,
        total: 1,
        tasks: [
          { id: 't9', description: 'a long description '.repeat(10), status: 'pending' as const, dependencies: deps },
        ],
      },
    };
    for (const width of [60, 100]) {
      const row = renderDashboard(long, { ...SIZE, width }).find((l) => l.includes('t9'))!;
      expect(textWidth(row)).toBe(width);
      expect(row).toMatch(/…  after task_0.*… \[PENDING\] │$/);
    }
  });

  it('never draws more lines than the terminal has, clipping the task list with "+N more"', () => {
    const tall = renderDashboard(state(), SIZE);
    for (const height of [24, 20, 16, 12]) {
      const lines = renderDashboard(state(), { ...SIZE, height });
      expect(lines.length).toBeLessThanOrEqual(height);
      expect(lines[0]).toContain('Thoughtline');
      expect(lines.join('\n')).toContain('Cost so far');
    }
    expect(tall.join('\n')).not.toContain('more');
    expect(renderDashboard(state(), { ...SIZE, height: 16 }).join('\n')).toMatch(/\+\d+ more/);
    expect(renderDashboard(state(), { ...SIZE, height: 3 }).length).toBe(3);
  });

  it('paints only its own colour codes, and none without colour', () => {
    const plain = renderDashboard(state(), SIZE).join('\n');
    expect(plain).not.toContain('\x1b');
    const coloured = renderDashboard(state(), { ...SIZE, color: true }).join('\n');
    const codes = new Set(coloured.match(/\x1b\[[0-9;]*[A-Za-z]/g));
    expect([...codes].sort()).toEqual(['\x1b[0m', '\x1b[2m', '\x1b[31m', '\x1b[32m', '\x1b[33m', '\x1b[36m']);
  });

  it('renders hostile text inert: no escape sequence, control or bidi mark from a thought, goal or argument reaches the screen', () => {
    const hostile = 'ok\x1b]52;c;ZXZpbA==\x07 \x1b[2J\x1b[31mred\x9b1A\r\u202eevil\nnext';
    const s = dashboardState(startDashboard('agent-1', hostile, 0), sampleEvents(hostile), STATUS);
    const lines = renderDashboard(s, { ...SIZE, color: true });
    const text = lines.join('\n');
    // Only the dashboard's own SGR codes remain.
    expect(text.replace(/\x1b\[(?:0|2|31|32|33|36)m/g, '')).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]/);
    expect(text).toContain('ok');
    for (const line of lines) expect(textWidth(line.replace(/\x1b\[[0-9;]*m/g, ''))).toBe(100);
  });

  it('shows streamed model text, then the outcome and final spend once the run ended', () => {
    n = 0;
    let s = dashboardState(startDashboard('agent-1', 'goal', 0), [
      ...sampleEvents('first'),
      { type: 'live', activityId: 'a', attempt: 1, kind: 'text', text: 'Looking at the regex ' },
      { type: 'live', activityId: 'a', attempt: 1, kind: 'text', text: 'now' },
    ]);
    expect(renderDashboard(s, SIZE).join('\n')).toMatch(/Model replying: +│\n│ +…Looking at the regex now/);
    s = withResult(s, {
      success: true,
      finalAnswer: '',
      terminationReason: 'success',
      iterations: 4,
      costUsd: 0.5,
      usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
    } as never);
    const text = renderDashboard(s, SIZE).join('\n');
    expect(text).toContain('Status: ended (success)');
    expect(text).toContain('Cost so far: $0.5000 · 15 tokens');
    expect(text).toContain('Iteration 4 | Progress');
  });

  it("shows the run's limit from its result when no status was read (a run that ended within the second)", () => {
    const s = withResult(startDashboard('agent-1', 'goal', 0), {
      success: true,
      finalAnswer: 'Done.',
      grounding: 'grounded',
      terminationReason: 'success',
      iterations: 2,
      maxIterations: 10,
      costUsd: 0,
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
    } as never);
    expect(renderDashboard(s, SIZE).join('\n')).toContain('Iteration 2/10 | Steps');
  });

  it('once ended, shows the answer under its title in the box, and renderEnding gives it whole, wrapped and inert', () => {
    const long = `${'word '.repeat(120).trim()}\x1b]52;c;aGk=\x07 end`;
    const s = withResult(startDashboard('agent-1', 'goal', 0), {
      success: false,
      finalAnswer: `Line one\n\n\n${long}`,
      grounding: 'grounded',
      terminationReason: 'max_iterations',
      iterations: 10,
      maxIterations: 10,
      costUsd: 0,
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
    } as never);
    const box = renderDashboard(s, SIZE).join('\n');
    expect(box).toContain('│ Partial answer (max_iterations):');
    expect(box).toContain('│  Line one');
    const full = renderEnding(s, { width: 60, color: false });
    expect(full[0]).toBe('Partial answer (max_iterations):');
    expect(full[1]).toBe('Line one');
    // Blank lines fold to one; every word is there; no line passes the width; no escape sequence survives.
    expect(full[2]).toBe('');
    expect(
      full
        .slice(3)
        .join(' ')
        .split(' ')
        .filter((w) => w === 'word'),
    ).toHaveLength(120);
    expect(full.at(-1)).toMatch(/\bend$/);
    for (const line of full) expect(textWidth(line)).toBeLessThanOrEqual(60);
    expect(full.join('\n')).not.toMatch(/\x1b|\x07/);
    expect(renderEnding(startDashboard('agent-1', 'goal', 0), { width: 60, color: false })).toEqual([]);
  });

  it('shows the error of a run that ended without an answer', () => {
    const s = withResult(startDashboard('agent-1', 'goal', 0), {
      success: false,
      finalAnswer: '',
      terminationReason: 'error',
      error: 'ModelAuthentication: Could not resolve authentication method',
      iterations: 1,
      costUsd: 0,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    } as never);
    expect(renderEnding(s, { width: 100, color: false })).toEqual([
      'Error:',
      'ModelAuthentication: Could not resolve authentication method',
    ]);
  });
});

describe('sub-agents on the dashboard', () => {
  it('show their own iteration, plan progress and cost while they run, read from their own status', () => {
    const child = {
      ...STATUS,
      iteration: 2,
      maxIterations: 8,
      costUsd: 0.002,
      plan: { version: 1, source: 'model' as const, completed: 1, total: 2, tasks: [] },
      subAgents: [],
    };
    const s = withSubAgentStatus(state(), 'agent-1/sub-9', child);
    expect(renderDashboard(s, SIZE).join('\n')).toMatch(
      /▶ researcher running · iteration 2\/8 · progress 50% \[█████░░░░░\] · \$0\.0020/,
    );
    // Another child's status changes nothing.
    expect(withSubAgentStatus(state(), 'agent-other', child).subAgents).toEqual(state().subAgents);
  });
});

describe('warnings on the dashboard', () => {
  it('show the advice the CLI would log (a run nobody takes) under the status, in at most three rows', () => {
    const advice = `No worker has taken agent-1's next task for 10 s. Start one with:\n  thoughtline worker\n${'more words '.repeat(60)}`;
    const lines = renderDashboard(withWarning(state(), advice), SIZE);
    const at = lines.findIndex((l) => l.includes('! No worker has taken'));
    expect(at).toBe(4);
    expect(lines[at + 1]).toContain('thoughtline worker');
    expect(lines[at + 3]).toMatch(/^├/);
  });
});

describe('dashboardFits', () => {
  const tty = (columns: number, rows = 40) => ({ isTTY: true, columns, rows }) as unknown as NodeJS.WritableStream;
  it('asks for a terminal of 60×12 or more, without NO_COLOR; anything else gets lines', () => {
    expect(dashboardFits(tty(100), {})).toBe(true);
    expect(dashboardFits(tty(60, 12), {})).toBe(true);
    expect(dashboardFits(tty(59), {})).toBe(false);
    expect(dashboardFits(tty(100, 11), {})).toBe(false);
    expect(dashboardFits(tty(100), { NO_COLOR: '1' })).toBe(false);
    expect(dashboardFits(tty(100), { TERM: 'dumb' })).toBe(false);
    expect(dashboardFits({ isTTY: false, columns: 100, rows: 40 } as unknown as NodeJS.WritableStream, {})).toBe(false);
  });
});
