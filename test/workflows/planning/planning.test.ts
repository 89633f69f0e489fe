import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import { ApplicationFailure } from '@temporalio/common';
import type { ModelProvider } from '../../../src/activities';
import type { AgentInputInit, AgentStatus, ModelRequest } from '../../../src/domain';
import { statusQuery } from '../../../src/workflows/messages';
import { z } from 'zod';
import { defineTool } from '../../../src/tools/define-tool';
import { pollFor } from '../../helpers/approval-helpers';
import { thinkingSteps } from '../../helpers/chain-helpers';
import { gateTool, requestTexts } from '../../helpers/people-helpers';
import { runScripted } from '../../helpers/run-scripted';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';

const env = useTestEnv();

const planReply = (tasks: unknown[]): ScriptedTurn => ({
  content: [say(`Here is the plan:\n\`\`\`json\n${JSON.stringify({ tasks })}\n\`\`\``)],
});
const THREE_TASKS = [
  { id: 't1', description: 'Gather the figures', dependencies: [], required_tools: ['lookup'] },
  { id: 't2', description: 'Analyse them', dependencies: ['t1'] },
  { id: 't3', description: 'Write the report', dependencies: ['t2'] },
];
const update = (task_id: string, status: string, id?: string) => useTool('update_task', { task_id, status }, id);
const text = (request: ModelRequest) => requestTexts(request).join('\n');

/** runScripted with this file's task and iteration cap, and a fresh gate tool beside the test tools for `during` to hold and open. */
function runWithGates(
  script: ScriptedTurn[],
  input: Partial<AgentInputInit>,
  during?: (workflowId: string, gates: ReturnType<typeof gateTool>) => Promise<void>,
  wrap?: (inner: ModelProvider) => ModelProvider,
) {
  const gates = gateTool();
  return runScripted(env, {
    script,
    wrap,
    tools: [...testTools().tools, gates.tool],
    input: { task: 'Report on the quarter', maxIterations: 8, ...input },
    during: async ({ workflowId }) => during?.(workflowId, gates),
  });
}

describe.concurrent('planning', () => {
  it('works through a valid plan in dependency order, refuses an early completion, and reflects', async () => {
    const script: ScriptedTurn[] = [
      planReply(THREE_TASKS),
      { content: [update('t2', 'completed', 'u_early'), useTool('lookup', { key: 'q3' })] },
      { content: [update('t1', 'completed', 'u_t1'), useTool('wait_for_gate', { gate: 'analysis' })] },
      { content: [say('Progress is steady; t2 is next, then the report.')] },
      { content: [update('t2', 'completed', 'u_t2')] },
      { content: [update('t3', 'completed', 'u_t3')] },
      { content: [useTool('finish', { result: 'Quarter reported.' })] },
    ];
    const { result, model } = await runWithGates(
      script,
      { planning: { reflectEvery: 3 } },
      async (_workflowId, gates) => {
        await pollFor('the gate to start', () => gates.started('analysis') || undefined);
        gates.release('analysis');
      },
    );
    expect(result.terminationReason).toBe('success');
    const steps = result.chain.steps;

    // The plan: made first, visible with its snapshot, and in the final result all completed.
    const [made] = thinkingSteps(steps, 'plan');
    expect(made?.plan?.tasks.map((t) => [t.id, t.dependencies])).toEqual([
      ['t1', []],
      ['t2', ['t1']],
      ['t3', ['t2']],
    ]);
    expect(made?.plan).toMatchObject({ source: 'model', version: 1 });
    expect(result.plan?.tasks.map((t) => t.status)).toEqual(['completed', 'completed', 'completed']);

    // The early completion was refused, naming the dependency; the model read it.
    const early = steps.find((s) => s.type === 'tool_result' && s.toolResult.correlationId === 'u_early');
    expect(early?.type === 'tool_result' && early.toolResult.error).toMatch(/t1/);
    expect(text(model.calls[2]!)).toMatch(/t1/);
    // The agent saw the plan and the update tool from its first call.
    expect(text(model.calls[1]!)).toContain('Current task: t1');
    expect(model.calls[1]!.tools.map((t) => t.name)).toContain('update_task');

    // Reflection at iteration 3: a visible step, a call without tools, and read by the next turn.
    const [reflection] = thinkingSteps(steps, 'reflection');
    expect(reflection?.thought).toBe('Progress is steady; t2 is next, then the report.');
    expect(model.calls[3]!.toolChoice).toBe('none');
    expect(text(model.calls[4]!)).toContain('Your reflection at iteration 3');
  });

  it('shows the task list and progress in status while the run works', async () => {
    const script: ScriptedTurn[] = [
      planReply(THREE_TASKS),
      { content: [update('t1', 'completed'), useTool('wait_for_gate', { gate: 'g' })] },
      { content: [update('t2', 'completed'), update('t3', 'completed')] },
      { content: [useTool('finish', { result: 'done' })] },
    ];
    let status: AgentStatus | undefined;
    await runWithGates(script, { planning: { reflectEvery: 0 } }, async (workflowId, gates) => {
      await pollFor('the gate to start', () => gates.started('g') || undefined);
      status = await env.client.workflow.getHandle(workflowId).query(statusQuery);
      gates.release('g');
    });
    expect(status?.plan).toMatchObject({ version: 1, completed: 1, total: 3, current: 't2' });
    expect(status?.plan?.tasks.map((t) => t.status)).toEqual(['completed', 'in_progress', 'pending']);
  });

  it('repairs an invalid plan once, with the problem named in the repair request', async () => {
    const cyclic = [
      { id: 'a', description: 'First', dependencies: ['b'] },
      { id: 'b', description: 'Second', dependencies: ['a'] },
    ];
    const script: ScriptedTurn[] = [
      planReply(cyclic),
      planReply(THREE_TASKS),
      { content: [useTool('finish', { result: 'done' })] },
    ];
    const { result, model } = await runWithGates(script, { planning: { reflectEvery: 0 } });
    expect(text(model.calls[1]!)).toMatch(/cycle/i);
    expect(result.plan).toMatchObject({ source: 'repaired', version: 1 });
    expect(thinkingSteps(result.chain.steps, 'plan')[0]?.thought).toMatch(/after one repair/);
  });

  it('falls back to the named template when both plans are invalid; the planner saw the template', async () => {
    const script: ScriptedTurn[] = [
      { content: [say('no idea')] },
      { content: [say('still no JSON')] },
      { content: [useTool('finish', { result: 'done' })] },
    ];
    const { result, model } = await runWithGates(script, {
      task: 'Fix the login bug',
      planning: { template: 'debug_bug', reflectEvery: 0 },
    });
    expect(text(model.calls[0]!)).toContain('Reproduce the bug');
    expect(result.plan).toMatchObject({ source: 'template', template: 'debug_bug' });
    expect(result.plan?.tasks[0]).toMatchObject({ description: 'Reproduce the bug', status: 'in_progress' });
    expect(result.plan?.tasks.length).toBe(7);
  });

  it('goes on with the goal as a single task when the planner call fails for good, and says why', async () => {
    const failFirst = (inner: ModelProvider): ModelProvider => {
      let calls = 0;
      return {
        name: inner.name,
        complete: (request, signal, hooks) => {
          calls += 1;
          if (calls === 1)
            throw ApplicationFailure.create({
              type: 'ModelBadRequest',
              message: 'planner overloaded',
              nonRetryable: true,
            });
          return inner.complete(request, signal, hooks);
        },
      };
    };
    const { result } = await runWithGates(
      [{ content: [useTool('finish', { result: 'done anyway' })] }],
      { planning: { reflectEvery: 0 } },
      undefined,
      failFirst,
    );
    expect(result.terminationReason).toBe('success');
    expect(result.plan).toMatchObject({
      source: 'single_task',
      tasks: [{ id: 't1', description: 'Report on the quarter', status: 'in_progress' }],
    });
    expect(thinkingSteps(result.chain.steps, 'plan')[0]?.thought).toMatch(/planner overloaded/);
  });

  it('refuses a registered tool named like the injected update tool, naming the setting to change', async () => {
    const clashing = defineTool({ name: 'update_task', description: 'Mine', input: z.object({}), execute: () => 'x' });
    const h = await createHarness(env, { tools: [clashing], models: { scripted: createScriptedModel([]) } });
    await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ task: 'Plan it', model: SCRIPTED_MODEL, planning: {} });
      const result = await handle.result();
      expect(result).toMatchObject({
        success: false,
        terminationReason: 'error',
        error: expect.stringContaining('InvalidAgentInput'),
      });
      expect(result.error).toContain('set planning.updateToolName to another name');
      expect(result.modelCalls).toBe(0);
    });
  });

  it('re-plans after a task fails: dependents were blocked, the new plan keeps completed work', async () => {
    const script: ScriptedTurn[] = [
      planReply(THREE_TASKS),
      { content: [update('t1', 'completed')] },
      { content: [update('t2', 'failed')] },
      planReply([
        { id: 't1', description: 'Gather the figures', dependencies: [] },
        { id: 't2b', description: 'Analyse with a simpler method', dependencies: ['t1'] },
        { id: 't3', description: 'Write the report', dependencies: ['t2b'] },
      ]),
      { content: [useTool('finish', { result: 'done' })] },
    ];
    const { result, model } = await runWithGates(script, { planning: { reflectEvery: 0, maxReplans: 1 } });
    const plans = thinkingSteps(result.chain.steps, 'plan');
    expect(plans.length).toBe(2);
    expect(text(model.calls[3]!)).toMatch(/t2/);
    expect(result.plan?.version).toBe(2);
    expect(result.plan?.tasks.map((t) => [t.id, t.status])).toEqual([
      ['t1', 'completed'],
      ['t2b', 'in_progress'],
      ['t3', 'pending'],
    ]);
  });
});
