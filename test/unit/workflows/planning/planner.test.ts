import { describe, expect, it } from 'vitest';
import { Plan, PlanningSettings } from '../../../../src/domain';
import { makePlan, replan, type PlannerModel } from '../../../../src/workflows/planning/plans/planner';

type Request = Parameters<PlannerModel['ask']>[0];

/** Replies in order; fails on a call beyond its script, and `done()` fails if a reply was left unused. */
function scriptedPlanner(replies: string[]): PlannerModel & { requests: Request[]; done(): void } {
  const requests: Request[] = [];
  return {
    requests,
    ask: async (request) => {
      requests.push(request);
      const reply = replies[requests.length - 1];
      if (reply === undefined) throw new Error(`planner script ran out at call ${requests.length}`);
      return reply;
    },
    done: () => expect(requests).toHaveLength(replies.length),
  };
}

const settings = PlanningSettings.parse({});
const goal = 'Fix the failing login test';
const tools = ['read_file', 'run_tests'];
const valid = JSON.stringify({
  tasks: [
    { id: 't1', description: 'Run the tests', dependencies: [], required_tools: ['run_tests'] },
    { id: 't2', description: 'Fix the code', dependencies: ['t1'], required_tools: ['read_file'] },
  ],
});
const cyclic = JSON.stringify({
  tasks: [
    { id: 't1', description: 'a', dependencies: ['t2'] },
    { id: 't2', description: 'b', dependencies: ['t1'] },
  ],
});

describe('making a plan', () => {
  it('takes a valid first reply as it is', async () => {
    const model = scriptedPlanner([`Here you go:\n\`\`\`json\n${valid}\n\`\`\``]);
    const { plan, attempts } = await makePlan(goal, tools, settings, model);
    model.done();
    expect(Plan.parse(plan)).toEqual(plan);
    expect(plan).toMatchObject({ source: 'model', version: 1 });
    expect(plan.template).toBeUndefined();
    expect(plan.tasks.map((t) => [t.id, t.status, t.requiredTools])).toEqual([
      ['t1', 'pending', ['run_tests']],
      ['t2', 'pending', ['read_file']],
    ]);
    expect(attempts).toEqual([{ reply: expect.stringContaining('Here you go'), problems: [] }]);
    const [request] = model.requests;
    expect(request?.note).toBe('plan');
    expect(request?.prompt).toContain(goal);
    expect(request?.prompt).toContain('read_file, run_tests');
    expect(request?.prompt).toContain('"required_tools"');
    expect(request?.prompt).toContain('at most 12 tasks');
  });

  it('repairs an invalid reply once, quoting the problem and the reply', async () => {
    const model = scriptedPlanner([cyclic, valid]);
    const { plan, attempts } = await makePlan(goal, tools, settings, model);
    model.done();
    expect(plan.source).toBe('repaired');
    expect(plan.tasks).toHaveLength(2);
    expect(attempts[0]?.problems).toEqual([expect.stringContaining('t1 → t2 → t1')]);
    expect(attempts[1]?.problems).toEqual([]);
    const repair = model.requests[1];
    expect(repair?.note).toBe('plan repair');
    expect(repair?.prompt).toContain('t1 → t2 → t1');
    expect(repair?.prompt).toContain(cyclic);
    expect(repair?.prompt).toContain(goal);
  });

  it('treats a reply without JSON as invalid', async () => {
    const model = scriptedPlanner(['I would start by reading the code.', valid]);
    const { plan, attempts } = await makePlan(goal, tools, settings, model);
    expect(plan.source).toBe('repaired');
    expect(attempts[0]?.problems).toEqual(['The reply contains no JSON object.']);
    expect(model.requests[1]?.prompt).toContain('no JSON object');
  });

  it('falls back to the template after two invalid replies', async () => {
    const model = scriptedPlanner(['no plan', cyclic]);
    const { plan, attempts } = await makePlan(goal, tools, { ...settings, template: 'refactor_code' }, model);
    model.done();
    expect(plan).toMatchObject({ source: 'template', template: 'refactor_code', version: 1 });
    expect(plan.tasks.map((t) => t.description)[0]).toBe('Analyze current code');
    expect(plan.tasks).toHaveLength(6);
    expect(plan.tasks[5]).toMatchObject({ id: 't6', dependencies: ['t5'] });
    expect(attempts).toHaveLength(2);
    expect(model.requests[0]?.prompt).toContain('"Refactor Code" template');
    expect(model.requests[0]?.prompt).toContain('1. Analyze current code');
  });

  it('falls back to a single task, the goal, without a template', async () => {
    const model = scriptedPlanner(['{"tasks": []}', '{"tasks": []}']);
    const { plan } = await makePlan(goal, tools, settings, model);
    model.done();
    expect(plan).toEqual({
      tasks: [{ id: 't1', description: goal, dependencies: [], requiredTools: [], status: 'pending' }],
      source: 'single_task',
      version: 1,
    });
  });

  it('keeps the template name on a plan the model wrote', async () => {
    const model = scriptedPlanner([valid]);
    const { plan } = await makePlan(goal, tools, { ...settings, template: 'debug_bug' }, model);
    expect(plan).toMatchObject({ source: 'model', template: 'debug_bug' });
  });

  it('lets a model error propagate', async () => {
    const model: PlannerModel = { ask: async () => Promise.reject(new Error('rate limited')) };
    await expect(makePlan(goal, tools, settings, model)).rejects.toThrow('rate limited');
  });
});

describe('re-planning after a failed task', () => {
  const failedPlan: Plan = {
    tasks: [
      {
        id: 't1',
        description: 'Run the tests',
        dependencies: [],
        requiredTools: [],
        status: 'completed',
        note: '3 failures',
      },
      {
        id: 't2',
        description: 'Patch the parser',
        dependencies: ['t1'],
        requiredTools: [],
        status: 'failed',
        note: 'file is read-only',
      },
      { id: 't3', description: 'Rerun the tests', dependencies: ['t2'], requiredTools: [], status: 'blocked' },
    ],
    source: 'model',
    version: 1,
  };
  const newTasks = JSON.stringify({
    tasks: [
      { id: 't4', description: 'Copy the parser and patch the copy', dependencies: ['t1'] },
      { id: 't5', description: 'Rerun the tests', dependencies: ['t4'] },
    ],
  });

  it('keeps completed tasks and takes the new ones, which may depend on them', async () => {
    const model = scriptedPlanner([newTasks]);
    const { plan, attempts } = await replan(goal, failedPlan, 't2', tools, settings, model);
    model.done();
    expect(attempts).toHaveLength(1);
    expect(plan?.version).toBe(2);
    expect(plan?.source).toBe('model');
    expect(plan?.tasks.map((t) => [t.id, t.status])).toEqual([
      ['t1', 'completed'],
      ['t4', 'pending'],
      ['t5', 'pending'],
    ]);
    expect(plan?.tasks[0]?.note).toBe('3 failures');
    const prompt = model.requests[0]?.prompt ?? '';
    expect(model.requests[0]?.note).toBe('replan');
    expect(prompt).toContain('Task "t2" failed. The agent reported: file is read-only');
    expect(prompt).toContain('- t1 [completed] Run the tests');
  });

  it('repairs once, then gives up without a plan', async () => {
    const repaired = scriptedPlanner([
      '{"tasks": [{"id": "t4", "description": "x", "dependencies": ["t2x"]}]}',
      newTasks,
    ]);
    const first = await replan(goal, failedPlan, 't2', tools, settings, repaired);
    repaired.done();
    expect(first.plan?.source).toBe('repaired');
    expect(repaired.requests[1]?.note).toBe('replan repair');
    expect(repaired.requests[1]?.prompt).toContain('depends on "t2x"');

    const hopeless = scriptedPlanner(['nothing', 'still nothing']);
    const second = await replan(goal, failedPlan, 't2', tools, settings, hopeless);
    hopeless.done();
    expect(second.plan).toBeUndefined();
    expect(second.attempts).toHaveLength(2);
  });
});
