import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelTool, Plan, PlanProgress, type PlanTask, type TaskStatus } from '../../../../src/domain';
import {
  applyTaskUpdate,
  isPlanFinished,
  mergeReplan,
  parseTaskUpdate,
  planProgress,
  readyTasks,
  startNextTask,
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
/** t1 → t2 → t3, and t4 after t1 (t2 and t4 can run side by side). */
const plan = (statuses: Partial<Record<string, TaskStatus>> = {}): Plan => ({
  tasks: [
    task('t1', [], statuses['t1']),
    task('t2', ['t1'], statuses['t2']),
    task('t3', ['t2'], statuses['t3']),
    task('t4', ['t1'], statuses['t4']),
  ],
  source: 'model',
  version: 1,
});
const statuses = (p: Plan) => Object.fromEntries(p.tasks.map((t) => [t.id, t.status]));
const apply = (p: Plan, update: TaskUpdate) => {
  const result = applyTaskUpdate(p, update);
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result;
};
const refusal = (p: Plan, update: TaskUpdate): string => {
  const result = applyTaskUpdate(p, update);
  expect(result.ok).toBe(false);
  return result.message;
};

describe('ready tasks and starting the next one', () => {
  it('lists pending tasks whose dependencies are completed', () => {
    expect(readyTasks(plan()).map((t) => t.id)).toEqual(['t1']);
    expect(readyTasks(plan({ t1: 'completed' })).map((t) => t.id)).toEqual(['t2', 't4']);
    expect(readyTasks(plan({ t1: 'completed', t2: 'in_progress' })).map((t) => t.id)).toEqual(['t4']);
  });

  it('starts the first ready task without touching the input', () => {
    const before = plan({ t1: 'completed' });
    const snapshot = structuredClone(before);
    const { plan: after, started } = startNextTask(before);
    expect(started?.id).toBe('t2');
    expect(statuses(after)).toEqual({ t1: 'completed', t2: 'in_progress', t3: 'pending', t4: 'pending' });
    expect(before).toEqual(snapshot);
  });

  it('starts nothing while a task is in progress or nothing is ready', () => {
    const busy = plan({ t1: 'in_progress' });
    expect(startNextTask(busy)).toEqual({ plan: busy });
    const stuck = plan({ t1: 'failed', t2: 'blocked', t3: 'blocked', t4: 'blocked' });
    expect(startNextTask(stuck).started).toBeUndefined();
  });
});

describe('task updates from the model', () => {
  it('starts and completes a task, keeping the note, and says what is ready next', () => {
    const started = apply(plan(), { task_id: 't1', status: 'in_progress' });
    expect(started.message).toBe('Task "t1" is in progress.');
    const done = apply(started.plan, { task_id: 't1', status: 'completed', note: 'read it' });
    expect(done.plan.tasks[0]).toMatchObject({ status: 'completed', note: 'read it' });
    expect(done.message).toBe('Task "t1" is completed (1 of 4). Ready next: t2, t4.');
  });

  it('lets a pending task be completed directly once its dependencies are done', () => {
    expect(statuses(apply(plan({ t1: 'completed' }), { task_id: 't4', status: 'completed' }).plan)['t4']).toBe(
      'completed',
    );
  });

  it('allows two tasks in progress at once', () => {
    const p = apply(plan({ t1: 'completed', t2: 'in_progress' }), { task_id: 't4', status: 'in_progress' }).plan;
    expect(statuses(p)).toMatchObject({ t2: 'in_progress', t4: 'in_progress' });
  });

  it('refuses an unknown id, listing the valid ones', () => {
    expect(refusal(plan(), { task_id: 't9', status: 'completed' })).toBe(
      'Unknown task "t9". Valid task ids: t1, t2, t3, t4.',
    );
  });

  it('refuses to start or complete a task before its dependencies, naming them', () => {
    expect(refusal(plan(), { task_id: 't2', status: 'in_progress' })).toMatch(
      /"t2" cannot be started yet.*"t1" \(pending\)/,
    );
    expect(refusal(plan({ t1: 'in_progress' }), { task_id: 't2', status: 'completed' })).toMatch(
      /cannot be completed yet.*"t1" \(in_progress\)/,
    );
  });

  it('refuses to change a completed task', () => {
    expect(refusal(plan({ t1: 'completed' }), { task_id: 't1', status: 'failed' })).toMatch(/already completed/);
  });

  it('on failure blocks every dependent, transitively, and names them', () => {
    const failed = apply(plan({ t1: 'completed', t2: 'in_progress' }), {
      task_id: 't2',
      status: 'failed',
      note: 'no access',
    });
    expect(statuses(failed.plan)).toEqual({ t1: 'completed', t2: 'failed', t3: 'blocked', t4: 'pending' });
    expect(failed.message).toBe('Task "t2" is marked failed. Blocked because of it: t3.');
    expect(failed.plan.tasks[1]?.note).toBe('no access');

    const rootFailed = apply(plan(), { task_id: 't1', status: 'failed' }).plan;
    expect(statuses(rootFailed)).toEqual({ t1: 'failed', t2: 'blocked', t3: 'blocked', t4: 'blocked' });
  });

  it('refuses to work on a blocked task, naming the failure', () => {
    const p = plan({ t1: 'completed', t2: 'failed', t3: 'blocked' });
    expect(refusal(p, { task_id: 't3', status: 'in_progress' })).toMatch(/"t3" is blocked.*failed: t2/);
  });

  it('restarting a failed task unblocks its dependents', () => {
    const p = plan({ t1: 'completed', t2: 'failed', t3: 'blocked' });
    expect(statuses(apply(p, { task_id: 't2', status: 'in_progress' }).plan)).toMatchObject({
      t2: 'in_progress',
      t3: 'pending',
    });
  });
});

describe('progress and the end of the plan', () => {
  it('counts completed tasks and names the current one', () => {
    const progress = planProgress(plan({ t1: 'completed', t2: 'in_progress' }));
    expect(PlanProgress.parse(progress)).toEqual(progress);
    expect(progress).toMatchObject({ version: 1, source: 'model', completed: 1, total: 4, current: 't2' });
    expect(progress.tasks[2]).toEqual({ id: 't3', description: 'do t3', status: 'pending', dependencies: ['t2'] });
    expect('current' in planProgress(plan())).toBe(false);
  });

  it('is finished when nothing is pending or in progress', () => {
    expect(isPlanFinished(plan({ t1: 'completed', t2: 'completed', t3: 'in_progress', t4: 'completed' }))).toBe(false);
    expect(isPlanFinished(plan({ t1: 'completed', t2: 'failed', t3: 'blocked', t4: 'completed' }))).toBe(true);
    const done = apply(plan({ t1: 'completed', t2: 'completed', t3: 'completed' }), {
      task_id: 't4',
      status: 'completed',
    });
    expect(isPlanFinished(done.plan)).toBe(true);
    expect(done.message).toBe('Task "t4" is completed (4 of 4). No tasks are left.');
  });
});

describe('merging a re-plan', () => {
  it('keeps completed tasks, replaces the rest and bumps the version', () => {
    const old: Plan = { ...plan({ t1: 'completed', t2: 'failed', t3: 'blocked' }), template: 'debug_bug' };
    old.tasks[0] = { ...old.tasks[0]!, note: 'found it' };
    const merged = mergeReplan(old, [task('t1'), task('t5', ['t1']), task('t6', ['t5'])]);
    expect(Plan.parse(merged)).toEqual(merged);
    expect(merged.version).toBe(2);
    expect(merged.template).toBe('debug_bug');
    expect(merged.tasks.map((t) => [t.id, t.status])).toEqual([
      ['t1', 'completed'],
      ['t5', 'pending'],
      ['t6', 'pending'],
    ]);
    expect(merged.tasks[0]?.note).toBe('found it');
    expect(readyTasks(merged).map((t) => t.id)).toEqual(['t5']);
  });
});

describe('the update tool', () => {
  it('is a model tool named by the settings, requiring task_id and status', () => {
    const tool = updateTaskTool({ updateToolName: 'report_task' });
    expect(ModelTool.parse(tool)).toEqual(tool);
    expect(tool.name).toBe('report_task');
    const schema = z.fromJSONSchema(tool.inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
    expect(schema.safeParse({ task_id: 't1', status: 'completed', note: 'ok' }).success).toBe(true);
    expect(schema.safeParse({ task_id: 't1', status: 'done' }).success).toBe(false);
    expect(schema.safeParse({ status: 'completed' }).success).toBe(false);
  });

  it('parses good arguments and explains bad ones', () => {
    expect(parseTaskUpdate({ task_id: ' t2 ', status: 'failed', note: 'no' })).toEqual({
      ok: true,
      update: { task_id: 't2', status: 'failed', note: 'no' },
    });
    const bad = parseTaskUpdate({ task_id: 't2', status: 'done' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toMatch(/Invalid task update.*"in_progress", "completed" or "failed"[\s\S]*status/);
    expect(parseTaskUpdate({ status: 'completed' }).ok).toBe(false);
  });
});
