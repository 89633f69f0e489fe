import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../../src/domain';
import {
  planNote,
  plannerPrompt,
  reflectionPrompt,
  repairPrompt,
} from '../../../../src/workflows/planning/plans/plan-prompts';

const plan: Plan = {
  tasks: [
    {
      id: 't1',
      description: 'Read the log',
      dependencies: [],
      requiredTools: [],
      status: 'completed',
      note: 'found a timeout',
    },
    { id: 't2', description: 'Raise the timeout', dependencies: ['t1'], requiredTools: [], status: 'in_progress' },
    { id: 't3', description: 'Rerun the job', dependencies: ['t2'], requiredTools: [], status: 'pending' },
  ],
  source: 'model',
  version: 2,
};

describe('plan prompts', () => {
  it('shows the plan, its statuses, the current task and the update tool', () => {
    const note = planNote(plan, { updateToolName: 'update_task' });
    expect(note).toContain('Plan (version 2, 1 of 3 tasks completed)');
    expect(note).toContain('- t1 [completed] Read the log Note: found a timeout');
    expect(note).toContain('- t3 [pending] Rerun the job (after t2)');
    expect(note).toContain('Current task: t2: Raise the timeout');
    expect(note).toContain('"update_task" tool');
  });

  it('names the next ready task when none is in progress, and nothing when none is ready', () => {
    const between: Plan = {
      ...plan,
      tasks: plan.tasks.map((t) => (t.id === 't2' ? { ...t, status: 'completed' } : t)),
    };
    expect(planNote(between, { updateToolName: 'report' })).toContain('Next ready task: t3: Rerun the job');
    const stuck: Plan = {
      ...plan,
      tasks: plan.tasks.map((t) =>
        t.id === 't2' ? { ...t, status: 'failed' } : t.id === 't3' ? { ...t, status: 'blocked' } : t,
      ),
    };
    expect(planNote(stuck, { updateToolName: 'report' })).toContain('No task is in progress or ready to start.');
  });

  it('asks for a reflection with or without a plan', () => {
    const withPlan = reflectionPrompt(plan, 6);
    expect(withPlan).toContain('iteration 6');
    expect(withPlan).toContain('- t2 [in_progress] Raise the timeout');
    expect(withPlan).toMatch(/progress.*went wrong.*next/);
    expect(reflectionPrompt(undefined, 3)).not.toContain('The plan:');
  });

  it('is deterministic and lists each repair problem', () => {
    expect(plannerPrompt('g', [], { maxTasks: 3 })).toBe(plannerPrompt('g', [], { maxTasks: 3 }));
    expect(plannerPrompt('g', [], { maxTasks: 3 })).toContain('The agent has no tools');
    expect(repairPrompt('{}', ['First problem.', 'Second problem.'])).toContain('- First problem.\n- Second problem.');
  });
});
