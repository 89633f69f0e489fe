import { describe, expect, it } from 'vitest';
import { templateTasks } from '../../../../src/workflows/planning/plans/plan-templates';
import { validatePlan } from '../../../../src/workflows/planning/plans/plan-validation';

const settings = { maxTasks: 4 };
const problemsOf = (raw: unknown, doneIds: string[] = []): string[] => {
  const check = validatePlan(raw, settings, doneIds);
  return check.ok ? [] : check.problems;
};

describe('plan validation', () => {
  it('accepts a valid plan and reads required_tools, defaults and pending status', () => {
    const check = validatePlan(
      {
        tasks: [
          { id: 't1', description: ' Read the code ', required_tools: ['read_file'], estimated_complexity: 'low' },
          { id: 't2', description: 'Fix it', dependencies: ['t1', 't1'], requiredTools: ['write_file'] },
        ],
      },
      settings,
    );
    expect(check).toEqual({
      ok: true,
      tasks: [
        {
          id: 't1',
          description: 'Read the code',
          dependencies: [],
          requiredTools: ['read_file'],
          status: 'pending',
          complexity: 'low',
        },
        { id: 't2', description: 'Fix it', dependencies: ['t1'], requiredTools: ['write_file'], status: 'pending' },
      ],
    });
  });

  it('reads numeric ids as strings', () => {
    const check = validatePlan(
      {
        tasks: [
          { id: 1, description: 'a' },
          { id: 2, description: 'b', dependencies: [1] },
        ],
      },
      settings,
    );
    expect(check.ok && check.tasks.map((t) => [t.id, t.dependencies])).toEqual([
      ['1', []],
      ['2', ['1']],
    ]);
  });

  it('ignores a status the model wrote: every task starts pending', () => {
    const check = validatePlan({ tasks: [{ id: 't1', description: 'a', status: 'completed' }] }, settings);
    expect(check.ok && check.tasks[0]?.status).toBe('pending');
  });

  it('rejects anything that is not an object with a tasks array', () => {
    for (const raw of [undefined, 'text', [{ id: 't1', description: 'a' }], { steps: [] }, { tasks: 'a' }]) {
      expect(problemsOf(raw)).toEqual([expect.stringContaining('"tasks" array')]);
    }
  });

  it('rejects an empty plan', () => {
    expect(problemsOf({ tasks: [] })).toEqual(['The "tasks" array is empty; the plan needs at least one task.']);
  });

  it('rejects more tasks than maxTasks', () => {
    const tasks = ['a', 'b', 'c', 'd', 'e'].map((d, i) => ({ id: `t${i + 1}`, description: d }));
    expect(problemsOf({ tasks })).toEqual([expect.stringMatching(/has 5 tasks but at most 4/)]);
  });

  it('names each task with a bad shape', () => {
    const problems = problemsOf({
      tasks: [
        7,
        { description: 'no id' },
        { id: 't3' },
        { id: 't4', description: 'x', dependencies: 't3' },
        { id: 't5', description: 'y', required_tools: [1.5, {}] },
      ],
    });
    expect(problems).toHaveLength(6);
    expect(problems[0]).toMatch(/at most 4/);
    expect(problems.slice(1)).toEqual([
      expect.stringContaining('Task 1 is not a JSON object'),
      expect.stringContaining('Task 2 needs an "id"'),
      expect.stringContaining('Task "t3" needs a "description"'),
      expect.stringContaining('Task "t4" has invalid "dependencies"'),
      expect.stringContaining('Task "t5" has invalid "required_tools"'),
    ]);
  });

  it('rejects duplicate ids', () => {
    expect(
      problemsOf({
        tasks: [
          { id: 't1', description: 'a' },
          { id: 't1', description: 'b' },
        ],
      }),
    ).toEqual(['The id "t1" is used by 2 tasks; every task needs its own id.']);
  });

  it('rejects a dependency on an unknown task, listing the known ids', () => {
    expect(
      problemsOf({
        tasks: [
          { id: 't1', description: 'a' },
          { id: 't2', description: 'b', dependencies: ['t9'] },
        ],
      }),
    ).toEqual(['Task "t2" depends on "t9", which is not a task in the plan (known ids: t1, t2).']);
  });

  it('lets a re-plan depend on completed tasks kept from the old plan', () => {
    const raw = { tasks: [{ id: 't3', description: 'again', dependencies: ['t1'] }] };
    expect(problemsOf(raw)).toHaveLength(1);
    expect(validatePlan(raw, settings, ['t1']).ok).toBe(true);
  });

  it('rejects a task that depends on itself', () => {
    expect(problemsOf({ tasks: [{ id: 't1', description: 'a', dependencies: ['t1'] }] })).toEqual([
      'Task "t1" depends on itself; remove "t1" from its dependencies.',
    ]);
  });

  it('names a two-task cycle', () => {
    const problems = problemsOf({
      tasks: [
        { id: 't1', description: 'a', dependencies: ['t2'] },
        { id: 't2', description: 'b', dependencies: ['t1'] },
      ],
    });
    expect(problems).toEqual([expect.stringContaining('cycle: t1 → t2 → t1')]);
  });

  it('names a longer cycle behind an acyclic entry task', () => {
    const problems = problemsOf({
      tasks: [
        { id: 'a', description: 'a', dependencies: ['b'] },
        { id: 'b', description: 'b', dependencies: ['c'] },
        { id: 'c', description: 'c', dependencies: ['d'] },
        { id: 'd', description: 'd', dependencies: ['b'] },
      ],
    });
    expect(problems).toEqual([expect.stringContaining('cycle: b → c → d → b')]);
  });

  it('accepts a diamond (shared dependency is not a cycle)', () => {
    const check = validatePlan(
      {
        tasks: [
          { id: 'a', description: 'a' },
          { id: 'b', description: 'b', dependencies: ['a'] },
          { id: 'c', description: 'c', dependencies: ['a'] },
          { id: 'd', description: 'd', dependencies: ['b', 'c'] },
        ],
      },
      settings,
    );
    expect(check.ok).toBe(true);
  });

  it('accepts every template as a plan', () => {
    for (const name of ['debug_bug', 'implement_feature', 'refactor_code'] as const) {
      const tasks = templateTasks(name);
      expect(validatePlan({ tasks }, { maxTasks: 12 }).ok).toBe(true);
      expect(tasks[1]?.dependencies).toEqual(['t1']);
    }
  });
});
