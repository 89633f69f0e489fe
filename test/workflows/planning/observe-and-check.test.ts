import { describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import type { ModelProvider } from '../../../src/activities';
import { say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import type { AgentInputInit, ModelRequest } from '../../../src/domain';
import { goalCheckSystem, observerSystem } from '../../../src/workflows/planning/verdicts/verdict-prompts';
import { thinkingSteps } from '../../helpers/chain-helpers';
import { scheduledActivities } from '../../helpers/history';
import { requestTexts } from '../../helpers/people-helpers';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const planReply = (tasks: unknown[]): ScriptedTurn => ({ content: [say(JSON.stringify({ tasks }))] });
const TWO_TASKS = [
  { id: 't1', description: 'Look up the Q3 figure', dependencies: [], required_tools: ['lookup'] },
  { id: 't2', description: 'Write the report', dependencies: ['t1'] },
];
const verdict = (value: unknown): ScriptedTurn => ({ content: [say(JSON.stringify(value))] });
const text = (request: ModelRequest) => requestTexts(request).join('\n');
const run = (script: ScriptedTurn[], input: Partial<AgentInputInit>) =>
  runScripted(env, { script, input: { task: 'Report on the quarter', maxIterations: 8, ...input } });

describe.concurrent('the observer (planning.observe)', () => {
  it('judges each action in a visible step; its learning joins the plan and reaches the next prompts', async () => {
    const { result, model, workflowId } = await run(
      [
        planReply(TWO_TASKS),
        { content: [say('Looking it up.'), useTool('lookup', { key: 'q3' })] },
        verdict({ success: true, learned: 'The Q3 figure is 20.', unblocked: ['t2', 'nope'], adjustment: '' }),
        // A turn of control calls only: no observer call.
        { content: [useTool('update_task', { task_id: 't1', status: 'completed' })] },
        { content: [useTool('lookup', { key: 'q4' })] },
        { content: [say('Looks fine to me.')] },
        { content: [useTool('finish', { result: 'Q3: 20.' })] },
      ],
      { planning: { reflectEvery: 0, observe: true } },
    );
    expect(result.terminationReason).toBe('success');
    const observed = thinkingSteps(result.chain.steps, 'observation');
    expect(observed).toHaveLength(2);
    // Only ids of this plan's tasks are kept.
    expect(observed[0]?.observation).toEqual({
      taskId: 't1',
      success: true,
      learned: 'The Q3 figure is 20.',
      unblocked: ['t2'],
    });
    expect(observed[0]?.thought).toBe(
      'Observer: The action succeeded (task t1). Learnt: The Q3 figure is 20. Made possible: t2.',
    );
    // An unreadable reply is a visible step, and the run goes on.
    expect(observed[1]?.observation).toBeUndefined();
    expect(observed[1]?.thought).toMatch(/Observer reply unreadable \(the reply holds no JSON object\)/);

    // The observer's call: its own system prompt, no tools, the action and its result.
    expect(model.calls[2]?.system).toBe(observerSystem());
    expect(model.calls[2]?.tools).toEqual([]);
    expect(text(model.calls[2]!)).toContain('- lookup {"key":"q3"}');
    // The next turn reads the verdict; the plan note after the update lists what was learnt.
    expect(text(model.calls[3]!)).toContain(
      'The observer on your last action: The action succeeded (task t1). Learnt: The Q3 figure is 20.',
    );
    expect(text(model.calls[4]!)).toContain('What you have learnt:\n- The Q3 figure is 20.');
    expect(result.plan?.learnings).toEqual([{ text: 'The Q3 figure is 20.', taskId: 't1' }]);
    // One model activity per action observed: plan, 3 turns with tools, 2 observers, finish.
    expect(model.calls).toHaveLength(7);
    const activities = await scheduledActivities(env.client, workflowId);
    expect(activities.filter((a) => a.type === 'callModel')).toHaveLength(7);
    expect(activities.filter((a) => a.type === 'runTool')).toHaveLength(2);
  });

  it('an observer whose model fails for good is a visible step, and the run goes on', async () => {
    const failObserver = (inner: ModelProvider): ModelProvider => ({
      name: inner.name,
      complete: (request, signal, hooks) => {
        if (request.system === observerSystem())
          throw ApplicationFailure.create({
            type: 'ModelBadRequest',
            message: 'observer overloaded',
            nonRetryable: true,
          });
        return inner.complete(request, signal, hooks);
      },
    });
    const { result } = await runScripted(env, {
      script: [
        planReply(TWO_TASKS),
        { content: [useTool('lookup', { key: 'q3' })] },
        { content: [useTool('finish', { result: 'Q3: 20.' })] },
      ],
      wrap: failObserver,
      input: { task: 'Report on the quarter', maxIterations: 8, planning: { reflectEvery: 0, observe: true } },
    });
    expect(result).toMatchObject({ terminationReason: 'success', finalAnswer: 'Q3: 20.' });
    const [step] = thinkingSteps(result.chain.steps, 'observation');
    expect(step?.thought).toMatch(/Observer unavailable \(.*observer overloaded.*\); the run goes on/);
    expect(step?.observation).toBeUndefined();
  });

  it('without observe, a planning run makes no observer call and its plan note is as before', async () => {
    const { result, model, workflowId } = await run(
      [
        planReply(TWO_TASKS),
        { content: [useTool('lookup', { key: 'q3' })] },
        { content: [useTool('finish', { result: 'Q3: 20.' })] },
      ],
      { planning: { reflectEvery: 0 } },
    );
    const activities = await scheduledActivities(env.client, workflowId);
    expect(activities.filter((a) => a.type === 'callModel')).toHaveLength(3);
    expect(result.terminationReason).toBe('success');
    expect(thinkingSteps(result.chain.steps, 'observation')).toHaveLength(0);
    expect(model.calls.map((c) => c.system)).not.toContain(observerSystem());
    expect(result.plan?.learnings).toBeUndefined();
    const update = model.calls[1]!.tools.find((t) => t.name === 'update_task');
    expect(Object.keys(update?.inputSchema['properties'] as object)).toEqual(['task_id', 'status', 'note']);
  });
});

describe.concurrent('the goal-completion check (planning.goalCheck)', () => {
  it('sends an answer back once with what is missing, then lets the next one stand', async () => {
    const { result, model } = await run(
      [
        planReply([TWO_TASKS[0]]),
        { content: [useTool('finish', { result: 'Done already.' }, 'fin_1')] },
        verdict({ met: false, missing: 'the Q3 figure' }),
        { content: [useTool('lookup', { key: 'q3' })] },
        { content: [useTool('finish', { result: 'Q3: 20.' })] },
        verdict({ met: true, missing: '' }),
      ],
      { planning: { reflectEvery: 0, goalCheck: true } },
    );
    expect(result).toMatchObject({ terminationReason: 'success', finalAnswer: 'Q3: 20.' });
    const checks = thinkingSteps(result.chain.steps, 'goal_check');
    expect(checks.map((c) => c.goalCheck)).toEqual([
      { met: false, missing: 'the Q3 figure', attempt: 1 },
      { met: true, attempt: 2 },
    ]);
    expect(model.calls[2]?.system).toBe(goalCheckSystem());
    expect(text(model.calls[2]!)).toContain('The answer the agent proposes:\nDone already.');
    // The refused finish came back to the model as its observation.
    const refused = result.chain.steps.find((s) => s.type === 'tool_result' && s.toolResult.correlationId === 'fin_1');
    expect(refused?.type === 'tool_result' && refused.toolResult.error).toContain(
      'The goal is not met yet: the Q3 figure. Continue.',
    );
    expect(text(model.calls[3]!)).toContain('The goal is not met yet: the Q3 figure. Continue.');
  });

  it('after maxGoalChecks refusals the answer stands without another check, and the step says so', async () => {
    const { result, model } = await run(
      [
        planReply([TWO_TASKS[0]]),
        { content: [useTool('finish', { result: 'First try.' })] },
        verdict({ met: false, missing: 'more detail' }),
        { content: [useTool('finish', { result: 'Second try.' })] },
      ],
      { planning: { reflectEvery: 0, goalCheck: true, maxGoalChecks: 1 } },
    );
    expect(result).toMatchObject({ terminationReason: 'success', finalAnswer: 'Second try.' });
    const checks = thinkingSteps(result.chain.steps, 'goal_check');
    expect(checks).toHaveLength(2);
    expect(checks[1]?.goalCheck).toBeUndefined();
    expect(checks[1]?.thought).toMatch(/sent the agent back 1 time \(maxGoalChecks 1\); this answer stands/);
    expect(model.calls).toHaveLength(4);
  });

  it('an unreadable check lets the answer stand, saying why', async () => {
    const { result } = await run(
      [planReply([TWO_TASKS[0]]), { content: [useTool('finish', { result: 'Q3: 20.' })] }, { content: [say('Yes.')] }],
      { planning: { reflectEvery: 0, goalCheck: true } },
    );
    expect(result).toMatchObject({ terminationReason: 'success', finalAnswer: 'Q3: 20.' });
    expect(thinkingSteps(result.chain.steps, 'goal_check')[0]?.thought).toMatch(/unreadable.*the answer stands/);
  });

  it('checks a text answer under react-text too, sending it back as an instruction', async () => {
    const { result, model } = await run(
      [
        planReply([TWO_TASKS[0]]),
        { content: [say('Thought: I know it.\nFinal Answer: Nothing yet.')] },
        verdict({ met: false, missing: 'the figure' }),
        { content: [say('Thought: Now I do.\nFinal Answer: Q3: 20.')] },
        verdict({ met: true, missing: '' }),
      ],
      { strategy: 'react-text', planning: { reflectEvery: 0, goalCheck: true } },
    );
    expect(result).toMatchObject({ terminationReason: 'success', finalAnswer: 'Q3: 20.' });
    expect(text(model.calls[3]!)).toContain('The goal is not met yet: the figure. Continue.');
  });
});

describe.concurrent('memory and plan reuse hooks', () => {
  it('a run with memory and plan caching on (nothing remembered, nothing cached) plans and ends as usual', async () => {
    const { result } = await run([planReply([TWO_TASKS[0]]), { content: [useTool('finish', { result: 'Q3: 20.' })] }], {
      planning: { reflectEvery: 0, memory: true },
      cache: { plans: true },
    });
    expect(result).toMatchObject({ terminationReason: 'success', finalAnswer: 'Q3: 20.' });
    expect(result.plan).toMatchObject({ source: 'model', version: 1 });
    expect(result.plan?.learnings).toBeUndefined();
    expect(thinkingSteps(result.chain.steps, 'plan')[0]?.cacheHit).toBeUndefined();
  });
});
