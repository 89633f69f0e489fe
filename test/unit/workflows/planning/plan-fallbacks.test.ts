import { describe, expect, it } from 'vitest';
import { Plan, type PlanTask, type TaskStatus } from '../../../../src/domain';
import {
  markBlocked,
  refuseFallback,
  retryAfterAnswer,
  retryWithTool,
  splitTask,
  type FallbackRoom,
} from '../../../../src/workflows/planning/plans/plan-fallbacks';
import {
  applyTaskUpdate,
  parseTaskUpdate,
  updateTaskTool,
  type TaskUpdate,
} from '../../../../src/workflows/planning/plans/plan-tracker';

const task = (id: string, dependencies: string[] = [], status: TaskStatus = 'pending'): PlanTask => ({
  id,
  description: `do ${id}`,
  dependencies,
  requiredTools: [],
  status,
});
/** t1 → t2 → t3, and t4 after t1. */
const plan = (t2: TaskStatus = 'in_progress'): Plan => ({
  tasks: [task('t1', [], 'completed'), task('t2', ['t1'], t2), task('t3', ['t2']), task('t4', ['t1'])],
  source: 'model',
  version: 1,
});
const room: FallbackRoom = {
  allowed: ['split', 'alternative_tool', 'ask_user', 'mark_blocked'],
  toolNames: ['lookup', 'search'],
  allowQuestions: true,
};
const failed = (extra: Partial<TaskUpdate>): TaskUpdate => ({ task_id: 't2', status: 'failed', ...extra });
const ok = <T extends { ok: boolean }>(r: T): Extract<T, { ok: true }> => {
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r as Extract<T, { ok: true }>;
};

describe('fallback refusals', () => {
  it('refuses a fallback not allowed, listing the allowed ones; with none allowed, says fallbacks are off', () => {
    expect(refuseFallback(plan(), failed({ fallback: 'split' }), { ...room, allowed: ['mark_blocked'] })).toMatch(
      /not allowed.*allowed: mark_blocked/,
    );
    expect(refuseFallback(plan(), failed({ fallback: 'split' }), { ...room, allowed: [] })).toMatch(/off/);
  });

  it('refuses a fallback without "failed", a split without subtasks or with taken ids, an unknown tool, ask_user without questions', () => {
    expect(refuseFallback(plan(), { task_id: 't2', status: 'completed', fallback: 'mark_blocked' }, room)).toMatch(
      /"failed"/,
    );
    expect(refuseFallback(plan(), failed({ fallback: 'split' }), room)).toMatch(/needs "subtasks"/);
    const taken = [
      { id: 't3', description: 'a' },
      { id: 'n1', description: 'b' },
    ];
    expect(refuseFallback(plan(), failed({ fallback: 'split', subtasks: taken }), room)).toMatch(/taken.*t3/);
    const repeated = [
      { id: 'n1', description: 'a' },
      { id: 'n1', description: 'b' },
    ];
    expect(refuseFallback(plan(), failed({ fallback: 'split', subtasks: repeated }), room)).toMatch(/n1/);
    expect(refuseFallback(plan(), failed({ fallback: 'alternative_tool', tool: 'rm' }), room)).toMatch(
      /"rm" is not one of this run's tools \(lookup, search\)/,
    );
    expect(refuseFallback(plan(), failed({ fallback: 'alternative_tool' }), room)).toMatch(/needs "tool"/);
    expect(refuseFallback(plan(), failed({ fallback: 'ask_user' }), { ...room, allowQuestions: false })).toMatch(
      /allowQuestions/,
    );
    expect(refuseFallback(plan(), failed({ fallback: 'mark_blocked' }), room)).toBeUndefined();
    expect(refuseFallback(plan(), failed({ fallback: 'alternative_tool', tool: 'search' }), room)).toBeUndefined();
  });
});

describe('fallback transitions', () => {
  it('split: the subtasks replace the task in a chain after its dependencies; dependents wait for the last', () => {
    const before = plan();
    const subtasks = [
      { id: 't2a', description: 'first half' },
      { id: 't2b', description: 'second half' },
    ];
    const done = ok(splitTask(before, 't2', subtasks, 'too big'));
    expect(done.plan.tasks.map((t) => [t.id, t.dependencies, t.status])).toEqual([
      ['t1', [], 'completed'],
      ['t2a', ['t1'], 'pending'],
      ['t2b', ['t2a'], 'pending'],
      ['t3', ['t2b'], 'pending'],
      ['t4', ['t1'], 'pending'],
    ]);
    expect(done.plan.tasks[1]?.metadata).toEqual({ splitFrom: 't2' });
    expect(done.decision).toEqual({ taskId: 't2', kind: 'split', reason: 'too big', newTasks: ['t2a', 't2b'] });
    expect(Plan.safeParse(done.plan).success).toBe(true);
    expect(before.tasks.map((t) => t.id)).toEqual(['t1', 't2', 't3', 't4']);
  });

  it('alternative_tool: the task goes back to in progress, naming the tool', () => {
    const done = ok(retryWithTool(plan(), 't2', 'search', 'lookup is down'));
    expect(done.plan.tasks[1]).toMatchObject({ status: 'in_progress', metadata: { alternativeTool: 'search' } });
    expect(done.message).toContain('"search"');
    expect(done.decision).toMatchObject({ kind: 'alternative_tool', tool: 'search' });
  });

  it('mark_blocked: the task and its dependents stay blocked through later updates; the others go on', () => {
    const done = ok(markBlocked(plan(), 't2', 'needs access'));
    expect(done.plan.tasks.map((t) => t.status)).toEqual(['completed', 'blocked', 'blocked', 'pending']);
    expect(done.message).toMatch(/blocked with it: t3/);
    // A later update (t4 completed) settles the plan again: the marked task and t3 stay blocked.
    const later = ok(applyTaskUpdate(done.plan, { task_id: 't4', status: 'completed' }));
    expect(later.plan.tasks.map((t) => t.status)).toEqual(['completed', 'blocked', 'blocked', 'completed']);
  });

  it('ask_user, answered: the task goes back to in progress', () => {
    const done = ok(retryAfterAnswer(plan('failed'), 't2', 'stuck'));
    expect(done.plan.tasks[1]).toMatchObject({ status: 'in_progress', metadata: { fallback: 'ask_user' } });
  });

  it('keeps a task at 16 metadata entries: a new key is not added', () => {
    const full = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, 'v']));
    const p = plan();
    p.tasks[1] = { ...p.tasks[1]!, metadata: full };
    const done = ok(retryWithTool(p, 't2', 'search', ''));
    expect(Object.keys(done.plan.tasks[1]?.metadata ?? {})).toHaveLength(16);
    expect(Plan.safeParse(done.plan).success).toBe(true);
  });
});

describe('the update tool with fallbacks', () => {
  it('offers the fallback fields only when fallbacks are on; without them the tool is as before', () => {
    const plain = updateTaskTool({ updateToolName: 'update_task' });
    expect(Object.keys(plain.inputSchema['properties'] as object)).toEqual(['task_id', 'status', 'note']);
    const withFallbacks = updateTaskTool({ updateToolName: 'update_task', fallbacks: ['split', 'mark_blocked'] });
    const props = withFallbacks.inputSchema['properties'] as Record<string, { enum?: string[] }>;
    expect(props['fallback']?.enum).toEqual(['split', 'mark_blocked']);
    // Only the allowed strategies are described.
    expect(JSON.stringify(props['fallback'])).not.toContain('ask_user');
    expect(Object.keys(props)).toEqual(['task_id', 'status', 'note', 'fallback', 'subtasks', 'tool']);
  });

  it('reads subtasks within 2 to 5, and refuses 1 or 6', () => {
    const subtasks = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `s${i}`, description: 'x' }));
    expect(parseTaskUpdate({ task_id: 't2', status: 'failed', fallback: 'split', subtasks: subtasks(5) }).ok).toBe(
      true,
    );
    expect(parseTaskUpdate({ task_id: 't2', status: 'failed', fallback: 'split', subtasks: subtasks(6) }).ok).toBe(
      false,
    );
    expect(parseTaskUpdate({ task_id: 't2', status: 'failed', fallback: 'split', subtasks: subtasks(1) }).ok).toBe(
      false,
    );
    expect(parseTaskUpdate({ task_id: 't2', status: 'failed', fallback: 'retry_forever' }).ok).toBe(false);
  });
});
