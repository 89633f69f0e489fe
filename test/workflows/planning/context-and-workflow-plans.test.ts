import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import type { AgentInput, ModelRequest } from '../../../src/domain';
import { waitForPending } from '../../helpers/approval-helpers';
import { thinkingSteps, toolResultOf } from '../../helpers/chain-helpers';
import { requestTexts } from '../../helpers/people-helpers';
import { runScripted } from '../../helpers/run-scripted';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { useTestEnv } from '../../helpers/temporal-env';

/**
 * Issue 49, the workflow side: the run's context as its first step and in its prompts; a workflow
 * file's steps as the plan, with their tool and approval rules; task complexity, results and the
 * recorded choice of the next task.
 */
const env = useTestEnv();

const text = (request: ModelRequest) => requestTexts(request).join('\n');
const update = (task_id: string, status: string, id: string, note?: string) =>
  useTool('update_task', { task_id, status, ...(note ? { note } : {}) }, id);
const context = {
  data: { repo: '/srv/app' },
  files: [{ name: 'auth.py', content: 'def login(user): return check(user)', bytes: 36 }],
};

/** The input each Temporal run of the workflow started with, oldest first. */
async function runInputs(workflowId: string): Promise<AgentInput[]> {
  const runs: Array<{ runId: string; start: number }> = [];
  for await (const run of env.client.workflow.list({ query: `WorkflowId = '${workflowId}'` }))
    runs.push({ runId: run.runId, start: run.startTime.getTime() });
  runs.sort((a, b) => a.start - b.start);
  return Promise.all(
    runs.map(async ({ runId }) => {
      const history = await env.client.workflow.getHandle(workflowId, runId).fetchHistory();
      const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
      return defaultPayloadConverter.fromPayload(payload!) as AgentInput;
    }),
  );
}

describe.concurrent('context and workflow plans', () => {
  it('makes the context the first step and gives it to the planner and the first prompt; records each task choice', async () => {
    const tasks = [
      { id: 't1', description: 'Read auth.py', dependencies: [], estimated_complexity: 'low' },
      { id: 't2', description: 'Explain the bug', dependencies: ['t1'], estimated_complexity: 'medium' },
    ];
    const script: ScriptedTurn[] = [
      { content: [say(JSON.stringify({ tasks }))] },
      { content: [update('t1', 'completed', 'u1', 'login calls check')] },
      { content: [update('t2', 'completed', 'u2')] },
      { content: [useTool('finish', { result: 'explained' })] },
    ];
    const { result, model } = await runScripted(env, {
      script,
      input: { task: 'Why does login fail?', model: SCRIPTED_MODEL, context, planning: { reflectEvery: 0 } },
    });
    expect(result.terminationReason).toBe('success');
    const [first] = result.chain.steps;
    expect(first).toMatchObject({ type: 'thinking', purpose: 'context' });
    expect(first?.type === 'thinking' && first.thought).toContain('- auth.py: 36 bytes');
    expect(first?.type === 'thinking' && first.thought).toContain('Data: {"repo":"/srv/app"}');
    // The planner's request, then the agent's first: both carry the file in its block.
    expect(text(model.calls[0]!)).toContain('<file name="auth.py">\ndef login(user): return check(user)\n</file>');
    // The goal, the context, then the plan note the planner adds.
    expect(model.calls[1]!.messages[0]!.content.slice(0, 2)).toEqual([
      { type: 'text', text: 'Why does login fail?' },
      { type: 'text', text: expect.stringContaining('<file name="auth.py">') },
    ]);
    expect(result.plan?.tasks.map((t) => [t.complexity, t.result])).toEqual([
      ['low', 'login calls check'],
      ['medium', undefined],
    ]);
    const choices = thinkingSteps(result.chain.steps, 'task_choice');
    expect(choices.map((c) => c.taskChoice)).toEqual([
      {
        taskId: 't1',
        reason: 't1 next: it depends on no other task; no other task is ready.',
        alternatives: [],
        chosenBy: 'plan_order',
      },
      {
        taskId: 't2',
        reason: 't2 next: its dependency t1 is completed; no other task is ready.',
        alternatives: [],
        chosenBy: 'plan_order',
      },
    ]);
    // Shown like the run's other thoughts.
    expect(choices.map((c) => c.visibility)).toEqual([first!.visibility, first!.visibility]);
  });

  it('gives the context to a text ReAct run without a plan', async () => {
    const { result, model } = await runScripted(env, {
      script: [{ content: [say('Thought: I read it.\nFinal Answer: check fails')] }],
      input: { task: 'Why does login fail?', model: SCRIPTED_MODEL, context, strategy: 'react-text' },
    });
    expect(result.finalAnswer).toBe('check fails');
    expect(text(model.calls[0]!)).toContain('<file name="auth.py">');
    expect(result.chain.steps[0]).toMatchObject({ type: 'thinking', purpose: 'context' });
  });

  it('follows a workflow file: no planner call, tools outside a step refused, an approval step waits for a person', async () => {
    const workflow = {
      name: 'look_then_act',
      steps: [
        { id: 'look', description: 'Look the figures up', tools: ['lookup'] },
        { id: 'act', description: 'Check them again', after: ['look'], approval: true },
      ],
    };
    const script: ScriptedTurn[] = [
      { content: [useTool('always_fails', {}, 'c_outside')] },
      { content: [useTool('lookup', { key: 'q3' }, 'c_look')] },
      { content: [update('look', 'completed', 'u_look')] },
      { content: [useTool('lookup', { key: 'q4' }, 'c_gated')] },
      { content: [update('act', 'completed', 'u_act')] },
      { content: [useTool('finish', { result: 'done' })] },
    ];
    const { result, model, log } = await runScripted(env, {
      script,
      input: {
        task: 'Report the figures',
        model: SCRIPTED_MODEL,
        maxIterations: 10,
        // A timer on the approval wait, which waitForPending looks for before it queries.
        approvalTimeoutMs: 120_000,
        planning: { workflow, reflectEvery: 0 },
      },
      during: async ({ h, workflowId }) => {
        const [pending] = await waitForPending(h.agents, workflowId);
        expect(pending).toMatchObject({ callId: 'c_gated', toolName: 'lookup' });
        await h.agents.decide(workflowId, { callId: 'c_gated', by: { id: 'ops', roles: [] }, approved: true });
      },
    });
    expect(result.terminationReason).toBe('success');
    // No planner call: the first request is the agent's, with the step's rules in its plan note.
    expect(model.calls[0]!.tools.map((t) => t.name)).toContain('update_task');
    expect(text(model.calls[0]!)).toContain('- look [in_progress] Look the figures up (tools: lookup)');
    const [made] = thinkingSteps(result.chain.steps, 'plan');
    expect(made?.plan).toMatchObject({ source: 'workflow', workflow: 'look_then_act', version: 1 });
    expect(made?.plan?.tasks.map((t) => [t.id, t.dependencies, t.allowedTools, t.approval, t.metadata])).toEqual([
      ['look', [], ['lookup'], undefined, { source: 'workflow' }],
      ['act', ['look'], undefined, true, { source: 'workflow' }],
    ]);
    // The call outside the step was not run: an observation naming the allowed tools, and the run went on.
    expect(toolResultOf(result.chain.steps, 'c_outside')).toMatchObject({ success: false });
    expect(toolResultOf(result.chain.steps, 'c_outside')?.error).toMatch(/step "look".*only these tools.*lookup/);
    expect(text(model.calls[1]!)).toContain('only these tools may be called: lookup');
    expect(log.calls.map((c) => [c.tool, c.args])).toEqual([
      ['lookup', { key: 'q3' }],
      ['lookup', { key: 'q4' }],
    ]);
    expect(toolResultOf(result.chain.steps, 'c_gated')).toMatchObject({ success: true });
    expect(thinkingSteps(result.chain.steps, 'task_choice').map((c) => c.taskChoice?.taskId)).toEqual(['look', 'act']);
  });

  it('keeps the context and the step rules across continue-as-new', async () => {
    const workflow = { name: 'look_only', steps: [{ id: 'look', description: 'Look it up', tools: ['lookup'] }] };
    const script: ScriptedTurn[] = [
      { content: [useTool('lookup', { key: 'q1' }, 'c1')] },
      { content: [useTool('lookup', { key: 'q2' }, 'c2')] },
      { content: [useTool('always_fails', {}, 'c_after')] },
      { content: [update('look', 'completed', 'u_look')] },
      { content: [useTool('finish', { result: 'done' })] },
    ];
    const { result, workflowId } = await runScripted(env, {
      script,
      input: {
        task: 'Look it up',
        model: SCRIPTED_MODEL,
        context,
        continueAsNewEvery: 2,
        planning: { workflow, reflectEvery: 0 },
      },
    });
    expect(result.terminationReason).toBe('success');
    const inputs = await runInputs(workflowId);
    expect(inputs.length).toBeGreaterThan(1);
    expect(inputs.every((i) => i.context?.files[0]?.name === 'auth.py')).toBe(true);
    // The call after the handover is still held to the step's tools.
    expect(toolResultOf(result.chain.steps, 'c_after')?.error).toMatch(/only these tools may be called: lookup/);
    expect(result.chain.steps[0]).toMatchObject({ type: 'thinking', purpose: 'context' });
    expect(thinkingSteps(result.chain.steps, 'context')).toHaveLength(1);
  });
});
