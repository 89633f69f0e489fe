import { describe, expect, it } from 'vitest';
import type { Plan, PlanTask, TaskStatus } from '../../../../src/domain';
import { ThinkingStep } from '../../../../src/domain/chain/chain';
import { MAX_VERDICT_TEXT_CHARS } from '../../../../src/domain/planning/plan-verdicts';
import { planNote } from '../../../../src/workflows/planning/plans/plan-prompts';
import {
  awaitsChoice,
  modelChoice,
  refusedChoiceMessage,
  startByPlanOrder,
  startNext,
} from '../../../../src/workflows/planning/plans/task-choice';

const task = (id: string, dependencies: string[] = [], status: TaskStatus = 'pending') =>
  ({ id, description: `do ${id}`, dependencies, requiredTools: [], status }) as PlanTask;
const plan = (tasks: PlanTask[], source: Plan['source'] = 'model'): Plan => ({ tasks, source, version: 1 });
/** a and b ready, c after both. */
const fork = plan([task('a'), task('b'), task('c', ['a', 'b'])]);
const statuses = (p: Plan) => p.tasks.map((t) => t.status);
const schema = ThinkingStep.shape.taskChoice;

describe('the choice of the next task', () => {
  it('waits for the model when several tasks are ready; plan order for one, and for a workflow file', () => {
    expect(awaitsChoice(fork)).toBe(true);
    expect(startNext(fork)).toEqual({ plan: fork });
    const single = plan([task('a'), task('b', ['a'])]);
    expect(startNext(single).choose).toMatchObject({ taskId: 'a', chosenBy: 'plan_order', alternatives: [] });
    const workflow = plan(fork.tasks, 'workflow');
    expect(awaitsChoice(workflow)).toBe(false);
    expect(startNext(workflow).choose).toMatchObject({ taskId: 'a', chosenBy: 'plan_order', alternatives: ['b'] });
    // A task in progress: nothing to choose.
    expect(awaitsChoice(plan([task('a', [], 'in_progress'), task('b'), task('c')]))).toBe(false);
  });

  it('asks for the choice in the plan note, naming the ready tasks and the plan-order rule', () => {
    const note = planNote(fork, { updateToolName: 'update_task' });
    expect(note).toContain('Ready tasks: a, b. Choose the one that makes the most progress');
    expect(note).toContain('"status": "in_progress", "note": "<why this task now>"');
    expect(note).toContain('a starts (plan order)');
  });

  it("starts the model's ready task with its reason, redacted and bounded", () => {
    const chosen = modelChoice(fork, 'b', '  b decides whether a matters.  ');
    expect(chosen.ok && statuses(chosen.plan)).toEqual(['pending', 'in_progress', 'pending']);
    expect(chosen.ok && chosen.choose).toEqual({
      taskId: 'b',
      reason: 'b decides whether a matters.',
      alternatives: ['a'],
      chosenBy: 'model',
    });
    const secret = modelChoice(fork, 'a', 'the key sk-ant-api03-SECRETSECRETSECRETSECRET opens it');
    expect(secret.ok && secret.choose.reason).not.toContain('SECRETSECRET');
    const long = modelChoice(fork, 'a', 'x'.repeat(MAX_VERDICT_TEXT_CHARS + 500));
    expect(long.ok && long.choose.reason).toHaveLength(MAX_VERDICT_TEXT_CHARS);
    expect(long.ok && long.choose.reason.endsWith('[cut]')).toBe(true);
    expect(long.ok && long.plan.tasks[0]?.note).toHaveLength(MAX_VERDICT_TEXT_CHARS);
    expect(long.ok && schema.safeParse(long.choose).success).toBe(true);
    const silent = modelChoice(fork, 'a', undefined);
    expect(silent.ok && silent.choose.reason).toBe('The model chose a without saying why.');
  });

  it('refuses an unknown or not-ready task, and plan order starts the first ready one', () => {
    expect(modelChoice(fork, 'zz', 'why not')).toEqual({
      ok: false,
      refused: { taskId: 'zz', problem: 'unknown_task', detail: 'no task "zz" in the plan' },
    });
    const early = modelChoice(fork, 'c', undefined);
    expect(early).toEqual({
      ok: false,
      refused: { taskId: 'c', problem: 'not_ready', detail: 'task "c" waits for a, b' },
    });
    const done = plan([task('a', [], 'completed'), task('b'), task('c'), task('d', ['a'])]);
    expect(modelChoice(done, 'a', undefined)).toMatchObject({ refused: { detail: 'task "a" is completed' } });
    if (early.ok) throw new Error('not refused');
    const { plan: next, choose } = startByPlanOrder(fork, early.refused);
    expect(statuses(next)).toEqual(['in_progress', 'pending', 'pending']);
    expect(choose).toMatchObject({
      taskId: 'a',
      chosenBy: 'plan_order',
      alternatives: ['b'],
      refused: { taskId: 'c', problem: 'not_ready' },
    });
    expect(choose?.reason).toBe(
      'a next, by plan order: the model chose "c", which cannot start (task "c" waits for a, b); it is the first of the ready tasks a, b.',
    );
    expect(refusedChoiceMessage(early.refused, 'a')).toBe(
      'Choice refused (not_ready): task "c" waits for a, b. a starts (plan order).',
    );
  });

  it('stays within the TaskChoice schema for a refused id past its bound', () => {
    const long = 'y'.repeat(300);
    const refused = modelChoice(fork, long, undefined);
    if (refused.ok) throw new Error('not refused');
    const { choose } = startByPlanOrder(fork, refused.refused);
    expect(schema.safeParse(choose).success).toBe(true);
    expect(choose?.refused?.taskId).toHaveLength(64);
    expect(refusedChoiceMessage(refused.refused, 'a').length).toBeLessThan(200);
  });
});
