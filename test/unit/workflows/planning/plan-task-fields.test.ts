import { describe, expect, it } from 'vitest';
import { Plan, PlanProgress, ThinkingStep, type PlanTask, type TaskStatus } from '../../../../src/domain';
import { MAX_VERDICT_TEXT_CHARS, TaskChoice } from '../../../../src/domain/planning/plan-verdicts';
import { WorkflowTemplate } from '../../../../src/domain/planning/workflow-template';
import { boundedText } from '../../../../src/workflows/planning/bounded-text';
import { applyTaskUpdate, planProgress, startNextTask } from '../../../../src/workflows/planning/plans/plan-tracker';
import { plannerPrompt } from '../../../../src/workflows/planning/plans/plan-prompts';
import { validatePlan } from '../../../../src/workflows/planning/plans/plan-validation';
import { stepToolRule } from '../../../../src/workflows/planning/plans/step-tool-rule';
import { taskChoice } from '../../../../src/workflows/planning/plans/task-choice';
import { workflowPlan } from '../../../../src/workflows/planning/plans/workflow-plan';
import { offlinePlanReply } from '../../../../src/offline/offline-plan';

const task = (id: string, dependencies: string[] = [], status: TaskStatus = 'pending', extra: Partial<PlanTask> = {}) =>
  ({ id, description: `do ${id}`, dependencies, requiredTools: [], status, ...extra }) as PlanTask;
const plan = (tasks: PlanTask[], source: Plan['source'] = 'model'): Plan => ({ tasks, source, version: 1 });

describe('task fields', () => {
  it('reads estimated_complexity into complexity, and an invalid one is a plan problem', () => {
    const ok = validatePlan({ tasks: [{ id: 't1', description: 'a', estimated_complexity: 'High' }] }, { maxTasks: 3 });
    expect(ok.ok && ok.tasks[0]?.complexity).toBe('high');
    const bad = validatePlan(
      { tasks: [{ id: 't1', description: 'a', estimated_complexity: 'huge' }] },
      { maxTasks: 3 },
    );
    expect(bad).toEqual({ ok: false, problems: [expect.stringContaining('"estimated_complexity"')] });
    expect(plannerPrompt('Fix it', [], { maxTasks: 3 })).toContain('"estimated_complexity": "low", "medium" or "high"');
  });

  it('keeps a completion note as the result and a failure note as the error, bounded with a marker', () => {
    const start = plan([task('t1', [], 'in_progress'), task('t2')]);
    const done = applyTaskUpdate(start, { task_id: 't1', status: 'completed', note: 'found it' });
    expect(done.ok && done.plan.tasks[0]).toMatchObject({ result: 'found it' });
    expect(done.ok && done.plan.tasks[0]?.error).toBeUndefined();
    const long = 'x'.repeat(MAX_VERDICT_TEXT_CHARS + 50);
    const failed = applyTaskUpdate(start, { task_id: 't1', status: 'failed', note: long });
    const error = failed.ok ? failed.plan.tasks[0]?.error : undefined;
    expect(error?.length).toBe(MAX_VERDICT_TEXT_CHARS);
    expect(error?.endsWith(' [cut]')).toBe(true);
    // The bounded plan still parses against the chain's schema.
    expect(failed.ok && Plan.safeParse(failed.plan).success).toBe(true);
    expect(boundedText('short', 10)).toBe('short');
  });

  it('carries complexity in the plan progress, only where a task has one', () => {
    const progress = planProgress(plan([task('t1', [], 'pending', { complexity: 'medium' }), task('t2')]));
    expect(progress.tasks.map((t) => t.complexity)).toEqual(['medium', undefined]);
    expect('complexity' in progress.tasks[1]!).toBe(false);
    expect(PlanProgress.safeParse(progress).success).toBe(true);
  });

  it('gives the offline planner estimated complexities', () => {
    const reply = JSON.parse(
      offlinePlanReply(plannerPrompt('Look up the weather', ['weather_lookup'], { maxTasks: 4 })),
    ) as { tasks: { estimated_complexity: string }[] };
    expect(reply.tasks.map((t) => t.estimated_complexity)).toEqual(['low', 'low']);
    const checked = validatePlan(reply, { maxTasks: 4 });
    expect(checked.ok && checked.tasks.map((t) => t.complexity)).toEqual(['low', 'low']);
  });
});

describe('task choice', () => {
  it('says why a task is next, naming its completed dependencies and the ready tasks that wait', () => {
    const before = plan([
      task('t1', [], 'completed'),
      task('t2', [], 'completed'),
      task('t3', ['t1', 't2']),
      task('t4'),
    ]);
    const { started } = startNextTask(before);
    const choice = taskChoice(before, started!);
    expect(choice).toEqual({
      taskId: 't3',
      reason: 't3 next: its dependencies t1, t2 are completed; t4 is also ready and waits its turn in plan order.',
      alternatives: ['t4'],
      chosenBy: 'plan_order',
    });
    expect(taskChoice(plan([task('a')]), task('a')).reason).toBe(
      'a next: it depends on no other task; no other task is ready.',
    );
  });

  it('stays within the TaskChoice schema for long ids and many ready tasks', () => {
    const long = 'x'.repeat(300);
    const many = Array.from({ length: 40 }, (_, i) => task(`${long}${i}`));
    const choice = taskChoice(plan(many), many[0]!);
    expect(TaskChoice.safeParse(choice).success).toBe(true);
    expect(choice.alternatives).toHaveLength(30);
    expect(ThinkingStep.shape.taskChoice.safeParse(choice).success).toBe(true);
  });
});

describe('workflow plans and their step rules', () => {
  const template = WorkflowTemplate.parse({
    name: 'fix_bug',
    steps: [
      { id: 'read', description: 'Read the code', tools: ['read_file'] },
      { id: 'fix', description: 'Fix it', after: ['read'], approval: true },
    ],
  });

  it('makes the plan from the steps as written', () => {
    expect(workflowPlan(template)).toEqual({
      source: 'workflow',
      version: 1,
      workflow: 'fix_bug',
      tasks: [
        {
          id: 'read',
          description: 'Read the code',
          dependencies: [],
          requiredTools: ['read_file'],
          allowedTools: ['read_file'],
          status: 'pending',
          metadata: { source: 'workflow' },
        },
        {
          id: 'fix',
          description: 'Fix it',
          dependencies: ['read'],
          requiredTools: [],
          approval: true,
          status: 'pending',
          metadata: { source: 'workflow' },
        },
      ],
    });
    expect(Plan.safeParse(workflowPlan(template)).success).toBe(true);
  });

  it('allows only the step tools, asks approval in an approval step, and refuses when no step is in progress', () => {
    const made = workflowPlan(template);
    const reading = startNextTask(made).plan;
    expect(stepToolRule(reading, 'read_file', 'update_task')).toEqual({ kind: 'free' });
    const refused = stepToolRule(reading, 'write_file', 'update_task');
    expect(refused.kind === 'refuse' && refused.observation).toMatch(/step "read".*read_file/);
    const read = applyTaskUpdate(reading, { task_id: 'read', status: 'completed' });
    if (!read.ok) throw new Error(read.message);
    const fixing = startNextTask(read.plan).plan;
    expect(stepToolRule(fixing, 'write_file', 'update_task')).toEqual({
      kind: 'approve',
      reason: 'step "fix" of the workflow requires approval',
    });
    expect(stepToolRule(made, 'read_file', 'update_task').kind).toBe('refuse');
    // Plans not from a workflow file carry no rules.
    expect(stepToolRule({ ...reading, source: 'model' }, 'write_file', 'update_task')).toEqual({ kind: 'free' });
    expect(stepToolRule(undefined, 'write_file', 'update_task')).toEqual({ kind: 'free' });
  });
});
