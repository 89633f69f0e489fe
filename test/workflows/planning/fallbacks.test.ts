import { describe, expect, it } from 'vitest';
import { say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import type { AgentInputInit, ModelRequest } from '../../../src/domain';
import { answerUpdate, statusQuery } from '../../../src/workflows/messages';
import { thinkingSteps } from '../../helpers/chain-helpers';
import { requestTexts, waitFor } from '../../helpers/people-helpers';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const planReply = (tasks: unknown[]): ScriptedTurn => ({ content: [say(JSON.stringify({ tasks }))] });
/** t1 → t2, and t3 on its own. */
const TASKS = [
  { id: 't1', description: 'Fetch the figures', dependencies: [] },
  { id: 't2', description: 'Write the report', dependencies: ['t1'] },
  { id: 't3', description: 'Send a note', dependencies: [] },
];
const update = (input: Record<string, unknown>, id?: string) => useTool('update_task', input, id);
const text = (request: ModelRequest) => requestTexts(request).join('\n');
const ALL = ['split', 'alternative_tool', 'ask_user', 'mark_blocked'] as const;
const run = (script: ScriptedTurn[], input: Partial<AgentInputInit> = {}, during?: (id: string) => Promise<void>) =>
  runScripted(env, {
    script,
    input: {
      task: 'Report on the quarter',
      maxIterations: 8,
      planning: { reflectEvery: 0, maxReplans: 0, fallbacks: [...ALL] },
      ...input,
    },
    ...(during ? { during: ({ workflowId }) => during(workflowId) } : {}),
  });

describe.concurrent('fallback strategies (planning.fallbacks)', () => {
  it('split: the failed task is replaced by its subtasks, and what depended on it waits for the last one', async () => {
    const { result, model } = await run([
      planReply(TASKS),
      {
        content: [
          update({
            task_id: 't1',
            status: 'failed',
            note: 'too much at once',
            fallback: 'split',
            subtasks: [
              { id: 't1a', description: 'Fetch Q3' },
              { id: 't1b', description: 'Fetch Q4' },
            ],
          }),
        ],
      },
      { content: [update({ task_id: 't1a', status: 'completed' })] },
      { content: [update({ task_id: 't1b', status: 'completed' })] },
      { content: [useTool('finish', { result: 'done' })] },
    ]);
    expect(result.terminationReason).toBe('success');
    const [step] = thinkingSteps(result.chain.steps, 'fallback');
    expect(step?.fallback).toEqual({
      taskId: 't1',
      kind: 'split',
      reason: 'too much at once',
      newTasks: ['t1a', 't1b'],
    });
    expect(result.plan?.tasks.map((t) => [t.id, t.dependencies, t.status])).toEqual([
      ['t1a', [], 'completed'],
      ['t1b', ['t1a'], 'completed'],
      // t2 and t3 were both ready when the model answered: neither started without its choice.
      ['t2', ['t1b'], 'pending'],
      ['t3', [], 'pending'],
    ]);
    expect(result.plan?.tasks[0]?.metadata).toEqual({ splitFrom: 't1' });
    // The model was told, and offered the fallback fields.
    expect(text(model.calls[2]!)).toContain('Task "t1" is split into t1a, t1b');
    const tool = model.calls[1]!.tools.find((t) => t.name === 'update_task');
    expect((tool?.inputSchema['properties'] as Record<string, unknown>)['fallback']).toBeDefined();
  });

  it('alternative_tool: refused for a tool the run lacks, then the task goes back to in progress with the tool named', async () => {
    const { result, model } = await run([
      planReply(TASKS),
      { content: [update({ task_id: 't1', status: 'failed', fallback: 'alternative_tool', tool: 'scrape' }, 'u_bad')] },
      { content: [update({ task_id: 't1', status: 'failed', fallback: 'alternative_tool', tool: 'lookup' }, 'u_ok')] },
      { content: [useTool('finish', { result: 'done' })] },
    ]);
    expect(result.terminationReason).toBe('success');
    expect(text(model.calls[2]!)).toMatch(
      /"scrape" is not one of this run's tools \(lookup, always_fails, big_result\)/,
    );
    expect(text(model.calls[3]!)).toContain('try it with the "lookup" tool instead');
    const steps = thinkingSteps(result.chain.steps, 'fallback');
    expect(steps.map((s) => s.fallback)).toEqual([
      { taskId: 't1', kind: 'alternative_tool', reason: '', tool: 'lookup' },
    ]);
    expect(result.plan?.tasks[0]).toMatchObject({ status: 'in_progress', metadata: { alternativeTool: 'lookup' } });
  });

  it('mark_blocked: the task and its dependents stay blocked; the run goes on with the others', async () => {
    const { result } = await run([
      planReply(TASKS),
      { content: [update({ task_id: 't1', status: 'failed', note: 'no access', fallback: 'mark_blocked' })] },
      { content: [update({ task_id: 't3', status: 'completed' })] },
      { content: [useTool('finish', { result: 'partly done' })] },
    ]);
    expect(result.terminationReason).toBe('success');
    expect(result.plan?.tasks.map((t) => t.status)).toEqual(['blocked', 'blocked', 'completed']);
    expect(thinkingSteps(result.chain.steps, 'fallback')[0]?.fallback).toEqual({
      taskId: 't1',
      kind: 'mark_blocked',
      reason: 'no access',
    });
  });

  it('ask_user: the person is asked through the question desk, and the answer comes back as the observation', async () => {
    const { result, model } = await run(
      [
        planReply(TASKS),
        { content: [update({ task_id: 't1', status: 'failed', note: 'the source is down', fallback: 'ask_user' })] },
        { content: [useTool('finish', { result: 'done' })] },
      ],
      { allowQuestions: true, planning: { reflectEvery: 0, maxReplans: 0, fallbacks: [...ALL] } },
      async (id) => {
        const handle = env.client.workflow.getHandle(id);
        const open = await waitFor('the open question', async () => (await handle.query(statusQuery)).openQuestion);
        expect(open.question).toContain('Task "t1" (Fetch the figures) failed: the source is down');
        await handle.executeUpdate(answerUpdate, { args: [{ text: "Use last year's figures", by: 'bob' }] });
      },
    );
    expect(result.terminationReason).toBe('success');
    expect(text(model.calls[2]!)).toContain("Answer from bob: Use last year's figures");
    expect(thinkingSteps(result.chain.steps, 'fallback')[0]?.fallback).toMatchObject({
      taskId: 't1',
      kind: 'ask_user',
    });
    expect(result.plan?.tasks[0]).toMatchObject({ status: 'in_progress', metadata: { fallback: 'ask_user' } });
  });

  it('ask_user, nobody answering in time: the task is marked failed, and the step says so', async () => {
    const { result, model } = await run(
      [
        planReply(TASKS),
        { content: [update({ task_id: 't1', status: 'failed', note: 'the source is down', fallback: 'ask_user' })] },
        { content: [useTool('finish', { result: 'done' })] },
      ],
      {
        allowQuestions: true,
        questionTimeoutMs: 1_000,
        planning: { reflectEvery: 0, maxReplans: 0, fallbacks: [...ALL] },
      },
    );
    expect(result.terminationReason).toBe('success');
    expect(text(model.calls[2]!)).toContain('Nobody answered the question in time; the task is marked failed.');
    expect(thinkingSteps(result.chain.steps, 'fallback')[0]?.fallback).toMatchObject({
      kind: 'ask_user',
      reason: 'Nobody answered the question in time; the task is marked failed.',
    });
    expect(result.plan?.tasks.map((t) => t.status)).toEqual(['failed', 'blocked', 'in_progress']);
  });

  it('refuses ask_user without allowQuestions, and a fallback not allowed, naming why; nothing changes', async () => {
    const { result, model } = await run(
      [
        planReply(TASKS),
        { content: [update({ task_id: 't1', status: 'failed', fallback: 'ask_user' })] },
        { content: [update({ task_id: 't1', status: 'failed', fallback: 'split' })] },
        { content: [useTool('finish', { result: 'done' })] },
      ],
      { planning: { reflectEvery: 0, maxReplans: 0, fallbacks: ['ask_user', 'mark_blocked'] } },
    );
    expect(text(model.calls[2]!)).toMatch(/allowQuestions/);
    expect(text(model.calls[3]!)).toMatch(/"split" is not allowed in this run; allowed: ask_user, mark_blocked/);
    expect(thinkingSteps(result.chain.steps, 'fallback')).toHaveLength(0);
    expect(result.plan?.tasks[0]?.status).toBe('in_progress');
  });
});
