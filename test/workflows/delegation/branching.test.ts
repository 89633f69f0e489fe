import { describe, expect, it } from 'vitest';
import type { ModelProvider } from '../../../src/activities';
import { createScriptedModel, say, useTool, type ScriptedModel } from '../../../src/activities/models/scripted-model';
import type { AgentInputInit, AgentResult, SubAgentRun } from '../../../src/domain';
import { pollFor } from '../../helpers/approval-helpers';
import { callStep, llmCalls, resultStep, thinkingSteps, toolResultOf } from '../../helpers/chain-helpers';
import { scripted } from '../../helpers/sub-agent-helpers';
import { waitForChildren } from '../../helpers/sub-agent-scripts';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { slowTool, testTools } from '../../helpers/test-tools';

const env = useTestEnv();

/**
 * One provider for a branching run: a request whose task names a branch ("Yours: "<label>"") goes
 * to that label's script, the judge's to `judge`, the rest to `lead`; so branches running at
 * once never take each other's turns.
 */
function modelsByBranch(scripts: Record<string, ScriptedModel>): ModelProvider & { verify(): void } {
  return {
    name: 'scripted',
    async complete(request, signal, hooks) {
      const label = /Yours: \\"(.+?)\\"/.exec(JSON.stringify(request.messages))?.[1];
      const script = request.model === 'judge' ? scripts['judge'] : scripts[label ?? 'lead'];
      if (!script) throw new Error(`No script for ${label ?? request.model}`);
      return script.complete(request, signal, hooks);
    },
    verify() {
      for (const script of Object.values(scripts)) script.verify();
    },
  };
}

const approaches = (...labels: string[]) => labels.map((label) => ({ label, instructions: `Try it by ${label}.` }));
const branchRuns = (result: AgentResult): SubAgentRun[] => (result.chain.subAgents ?? []).filter((r) => r.branch);

describe.concurrent('agent-driven branching (explore_branches)', () => {
  it('runs three approaches as child runs, the judge picks branch 2, and only its answer is the observation', async () => {
    const { tools } = testTools();
    const lead = createScriptedModel([
      {
        content: [
          say('Three ways to find it; I will try them at once.'),
          useTool(
            'explore_branches',
            { approaches: approaches('archive', 'index', 'guess'), criteria: 'Prefer a direct answer.' },
            'call_branch',
          ),
        ],
      },
      { content: [useTool('finish', { result: 'Paris, per the index.' })] },
    ]);
    const archive = createScriptedModel([
      { content: [say('Look it up.'), useTool('lookup', { key: 'capital' })] },
      { content: [useTool('finish', { result: 'The archive says the capital is Paris.' })] },
    ]);
    const index = createScriptedModel([{ content: [useTool('finish', { result: 'Paris, per the index.' })] }]);
    const guess = createScriptedModel([{ content: [useTool('give_up', { reason: 'no way to guess' })] }]);
    const judge = createScriptedModel([{ content: [say('{"winner": 2, "reason": "the index answer is direct"}')] }]);
    const models = modelsByBranch({ lead, archive, index, guess, judge });
    const h = await createHarness(env, { tools, models: { scripted: models } });
    const input: AgentInputInit = {
      task: 'What is the capital of France?',
      agentName: 'geo',
      model: scripted('lead'),
      tools: ['lookup'],
      tokenBudget: 90_000,
      branching: { judge: scripted('judge') },
    };
    const result = await h.worker.runUntil(async () => (await h.agents.start(input)).result());
    models.verify();

    expect(result).toMatchObject({ success: true, finalAnswer: 'Paris, per the index.' });
    // Every branch is a child run of the same agent, marked with its approach; only branch 2 won.
    const runs = branchRuns(result);
    expect(runs.map((r) => [r.branch!.index, r.branch!.label, r.status, r.branch!.winner ?? false])).toEqual([
      [1, 'archive', 'completed', false],
      [2, 'index', 'completed', true],
      [3, 'guess', 'failed', false],
    ]);
    // Named after the run and the call's step, like a sub-agent.
    const step = callStep(result.chain.steps, 'call_branch')!;
    expect(step.toolCall.delegatedTo).toBeUndefined();
    expect(runs.map((r) => r.workflowId)).toEqual(
      [1, 2, 3].map((i) => `${result.chain.chainId}/branch-${step.stepNumber}-${i}`),
    );
    expect(runs.every((r) => r.agentName === 'geo')).toBe(true);
    // Half of the tokens left after the lead's first call (120, the scripted default), split
    // three ways: (90,000 − 120) × 0.5 / 3; iterations: the run's left (10 − 1), under the branch cap.
    expect(runs.map((r) => r.budget)).toEqual(runs.map(() => ({ maxIterations: 9, tokenBudget: 14_980 })));
    // Each branch started from the task with its own approach.
    expect(JSON.stringify(archive.calls[0]!.messages)).toContain('You are branch 1 of 3');
    expect(JSON.stringify(guess.calls[0]!.messages)).toContain('Try it by guess.');
    // The observation: the winner's whole answer, and how the others ended.
    const observation = toolResultOf(result.chain.steps, 'call_branch')!;
    expect(observation.success).toBe(true);
    expect(observation.subAgent).toMatchObject({ workflowId: runs[1]!.workflowId, branch: { winner: true } });
    const content = String(observation.result);
    expect(content).toContain('Branch 2 "index" was chosen: the index answer is direct.');
    expect(content).toContain('Its answer: Paris, per the index.');
    expect(content).toContain('branch 1 “archive”: completed (success): The archive says the capital is Paris;');
    expect(content).toContain('branch 3 “guess”: failed (failure)');
    expect(JSON.stringify(lead.calls[1]!.messages)).toContain('Branch 2 \\"index\\" was chosen');
    // The choice is a visible step, after the judge's own model call.
    const [choice] = thinkingSteps(result.chain.steps, 'branch_choice');
    expect(choice!.thought).toBe(
      "Going on with branch 2 “index” (the judge's pick, judge): the index answer is direct. The others: " +
        'branch 1 “archive”: completed (success): The archive says the capital is Paris; branch 3 “guess”: failed (failure): no way to guess.',
    );
    expect(llmCalls(result.chain.steps).some((c) => c.toolName.includes('judge'))).toBe(true);
    expect(judge.calls[0]!.messages[0]!.content).toEqual([
      expect.objectContaining({ text: expect.stringContaining('Criteria: Prefer a direct answer.') }),
    ]);
  });

  it('first_success: the first branch to finish wins and the other is cancelled, with no judge call', async () => {
    const events: string[] = [];
    const lead = createScriptedModel([
      {
        content: [
          say('Race them.'),
          useTool('explore_branches', { approaches: approaches('quick', 'slow') }, 'call_race'),
        ],
      },
      { content: [useTool('finish', { result: 'Quick answer.' })] },
    ]);
    const quick = createScriptedModel([{ content: [useTool('finish', { result: 'Quick answer.' })] }]);
    const slow = createScriptedModel([{ content: [say('This takes a while.'), useTool('slow_job', {})] }]);
    const models = modelsByBranch({ lead, quick, slow });
    const h = await createHarness(env, { tools: [slowTool(events)], models: { scripted: models } });
    const input: AgentInputInit = {
      task: 'Answer fast',
      agentName: 'racer',
      model: scripted('lead'),
      tools: ['slow_job'],
      branching: { choose: 'first_success', maxBranches: 2 },
    };
    const startedAt = Date.now();
    const result = await h.worker.runUntil(async () => (await h.agents.start(input)).result());
    models.verify();

    expect(result).toMatchObject({ success: true, finalAnswer: 'Quick answer.' });
    // The slow job (20 s) was not waited for.
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    const runs = branchRuns(result);
    expect(runs.map((r) => [r.branch!.label, r.status, r.branch!.winner ?? false])).toEqual([
      ['quick', 'completed', true],
      ['slow', 'cancelled', false],
    ]);
    const content = String(toolResultOf(result.chain.steps, 'call_race')!.result);
    expect(content).toContain('Branch 1 "quick" was chosen: it finished first, and the others were stopped.');
    expect(llmCalls(result.chain.steps).filter((c) => c.toolName.includes('judge'))).toEqual([]);
  });

  it('refuses a call with one approach (a visible error the model reads), and runs none', async () => {
    const { tools } = testTools();
    const lead = createScriptedModel([
      { content: [say('Only one idea.'), useTool('explore_branches', { approaches: approaches('only') }, 'call_one')] },
      { content: [useTool('finish', { result: 'Done without branches.' })] },
    ]);
    const models = modelsByBranch({ lead });
    const h = await createHarness(env, { tools, models: { scripted: models } });
    const input: AgentInputInit = {
      task: 'Try one way',
      model: scripted('lead'),
      tools: ['lookup'],
      branching: {},
    };
    const result = await h.worker.runUntil(async () => (await h.agents.start(input)).result());
    models.verify();

    expect(result.success).toBe(true);
    expect(branchRuns(result)).toEqual([]);
    const refused = resultStep(result.chain.steps, 'call_one')!.toolResult;
    expect(refused.success).toBe(false);
    expect(refused.error).toMatch(/approaches/);
  });

  it('cancelling the run cancels every running branch, and the call is marked cancelled', async () => {
    const events: string[] = [];
    const lead = createScriptedModel([
      {
        content: [
          say('Two long ways.'),
          useTool('explore_branches', { approaches: approaches('north', 'south') }, 'call_long'),
        ],
      },
    ]);
    const north = createScriptedModel([{ content: [say('Start the job.'), useTool('slow_job', {})] }]);
    const south = createScriptedModel([{ content: [say('Start the job.'), useTool('slow_job', {})] }]);
    const models = modelsByBranch({ lead, north, south });
    const h = await createHarness(env, { tools: [slowTool(events)], models: { scripted: models } });
    const input: AgentInputInit = {
      task: 'Run both jobs',
      model: scripted('lead'),
      tools: ['slow_job'],
      branching: {},
    };
    const { parent, children } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start(input);
      const childIds = await waitForChildren(env.client, handle.workflowId, 2);
      await pollFor(
        'both jobs to start',
        () => (events.filter((e) => e === 'started').length === 2 ? true : undefined),
        30_000,
      );
      await handle.cancel();
      const parent = await handle.result();
      return { parent, children: await Promise.all(childIds.map((id) => h.agents.result(id))) };
    });
    models.verify();

    expect(parent).toMatchObject({ success: false, terminationReason: 'cancelled' });
    expect(children.map((c) => c.terminationReason)).toEqual(['cancelled', 'cancelled']);
    expect(branchRuns(parent).map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    expect(toolResultOf(parent.chain.steps, 'call_long')).toMatchObject({ success: false, outcome: 'unknown' });
  });
});
