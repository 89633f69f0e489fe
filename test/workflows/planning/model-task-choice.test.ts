import { describe, expect, it } from 'vitest';
import { say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import type { ModelRequest } from '../../../src/domain';
import { summariseChain } from '../../../src/domain/store/chain-summary';
import { createOfflineModel } from '../../../src/offline/offline-model';
import { llmCalls, thinkingSteps, toolResultOf } from '../../helpers/chain-helpers';
import { requestTexts } from '../../helpers/people-helpers';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

/**
 * Issue 65, item 2: with two tasks ready, the model picks the next one in its own turn (an
 * `update_task` "in_progress" call whose note says why), and the `task_choice` step records its
 * reason and `chosenBy: 'model'`. A choice of a task that is not ready is refused and plan order
 * starts the first ready task; a turn without a choice, and the offline model, keep plan order.
 */
const env = useTestEnv();

const text = (request: ModelRequest) => requestTexts(request).join('\n');
const update = (task_id: string, status: string, id: string, note?: string) =>
  useTool('update_task', { task_id, status, ...(note ? { note } : {}) }, id);
/** Two independent tasks, and the answer after both. */
const tasks = [
  { id: 't1', description: 'Look up the prices', dependencies: [], estimated_complexity: 'low' },
  { id: 't2', description: 'Look up the stock', dependencies: [], estimated_complexity: 'low' },
  { id: 't3', description: 'Answer from both', dependencies: ['t1', 't2'], estimated_complexity: 'low' },
];
const planning = { reflectEvery: 0 };

describe.concurrent('the model chooses the next task', () => {
  it('starts the ready task the model chose in its turn, with its reason', async () => {
    const why = 'The stock decides whether the prices matter at all.';
    const script: ScriptedTurn[] = [
      { content: [say(JSON.stringify({ tasks }))] },
      { content: [say('Stock first.'), update('t2', 'in_progress', 'u1', why)] },
      { content: [update('t2', 'completed', 'u2', 'in stock')] },
      { content: [update('t1', 'completed', 'u3', '4 EUR')] },
      { content: [update('t3', 'completed', 'u4')] },
      { content: [useTool('finish', { result: 'in stock, 4 EUR' })] },
    ];
    const { result, model } = await runScripted(env, {
      script,
      input: { task: 'Is the part in stock, and at what price?', planning },
    });
    expect(result.terminationReason).toBe('success');
    // The first agent turn lists the ready tasks and asks for a choice; nothing started yet.
    const first = text(model.calls[1]!);
    expect(first).toContain('- t1 [pending]');
    expect(first).toContain('- t2 [pending]');
    expect(first).toMatch(/Ready tasks: t1, t2\./);
    const choices = thinkingSteps(result.chain.steps, 'task_choice').map((c) => c.taskChoice);
    expect(choices[0]).toEqual({ taskId: 't2', reason: why, alternatives: ['t1'], chosenBy: 'model' });
    // t1 then started alone (the only ready task), by plan order; then t3.
    expect(choices.slice(1).map((c) => [c?.taskId, c?.chosenBy])).toEqual([
      ['t1', 'plan_order'],
      ['t3', 'plan_order'],
    ]);
    expect(toolResultOf(result.chain.steps, 'u1')).toMatchObject({ success: true });
    // The run started t2 alone: t1 stayed pending while t2 was worked.
    const second = text(model.calls[2]!);
    expect(second).toContain('- t2 [in_progress]');
    expect(second).toContain('- t1 [pending]');
    expect(result.plan?.tasks.map((t) => t.status)).toEqual(['completed', 'completed', 'completed']);
    // Row 003 #35: each model call says what it was for; the summary adds their own durations.
    expect(llmCalls(result.chain.steps).map((c) => c.arguments['purpose'])).toEqual([
      'plan',
      'turn',
      'turn',
      'turn',
      'turn',
      'turn',
    ]);
    const { time } = summariseChain(result.chain);
    expect(time).toMatchObject({ planningCalls: 1, reasoningIterations: 5 });
    expect(time.reasoningPerIterationMs).toBeLessThanOrEqual(time.slowestIterationMs);
  });

  it('refuses a choice of a task that is not ready, says why, and starts the first ready task by plan order', async () => {
    const script: ScriptedTurn[] = [
      { content: [say(JSON.stringify({ tasks }))] },
      { content: [update('t3', 'in_progress', 'u1', 'Answer straight away.')] },
      { content: [update('t1', 'completed', 'u2')] },
      { content: [useTool('finish', { result: 'partial' })] },
    ];
    const { result, model } = await runScripted(env, {
      script,
      input: { task: 'Is the part in stock, and at what price?', planning },
    });
    const refused = toolResultOf(result.chain.steps, 'u1');
    expect(refused).toMatchObject({ success: false });
    expect(refused?.error).toMatch(/^Choice refused \(not_ready\): task "t3"/);
    expect(refused?.error).toContain('t1 starts (plan order)');
    // The model reads the refusal as an error observation, with the plan as it now stands.
    expect(text(model.calls[2]!)).toContain('- t1 [in_progress]');
    const [choice] = thinkingSteps(result.chain.steps, 'task_choice');
    expect(choice?.taskChoice).toMatchObject({
      taskId: 't1',
      chosenBy: 'plan_order',
      alternatives: ['t2'],
      refused: { taskId: 't3', problem: 'not_ready' },
    });
    expect(choice?.thought).toMatch(/plan order/);
  });

  it('starts the first ready task by plan order when the model works without choosing', async () => {
    const script: ScriptedTurn[] = [
      { content: [say(JSON.stringify({ tasks }))] },
      { content: [useTool('lookup', { key: 'prices' }, 'c1')] },
      { content: [useTool('finish', { result: 'done' })] },
    ];
    const { result } = await runScripted(env, {
      script,
      input: { task: 'Is the part in stock, and at what price?', planning },
    });
    const steps = result.chain.steps;
    const [choice] = thinkingSteps(steps, 'task_choice');
    expect(choice?.taskChoice).toMatchObject({ taskId: 't1', chosenBy: 'plan_order', alternatives: ['t2'] });
    expect(choice?.taskChoice?.reason).toContain('did not choose');
    // Settled before the turn's call ran.
    const call = steps.find((s) => s.type === 'tool_call' && s.toolCall.correlationId === 'c1')!;
    expect(choice!.stepNumber).toBeLessThan(call.stepNumber);
  });

  it('keeps plan order with the offline model', async () => {
    const { result } = await runScripted(env, {
      model: createOfflineModel(),
      input: { task: 'lookup the key and big_result', planning, maxIterations: 12 },
    });
    const choices = thinkingSteps(result.chain.steps, 'task_choice').map((c) => c.taskChoice);
    expect(choices.length).toBeGreaterThan(1);
    expect(choices[0]).toMatchObject({ taskId: 't1', chosenBy: 'plan_order', alternatives: ['t2'] });
    expect(choices.every((c) => c?.chosenBy === 'plan_order')).toBe(true);
    expect(result.terminationReason).toBe('success');
  });
});
