import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import type { AgentInputInit, AgentResult } from '../../../src/domain';
import { cancelSignal } from '../../../src/workflows/messages';
import { pollFor } from '../../helpers/approval-helpers';
import { resultStep } from '../../helpers/chain-helpers';
import { modelsByName, scripted } from '../../helpers/sub-agent-helpers';
import { waitForChildren } from '../../helpers/sub-agent-scripts';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { slowTool } from '../../helpers/test-tools';

const env = useTestEnv();

/** Generous: a cancelled tree should wind down in about two seconds; this only catches a hang. */
const PROMPT_MS = 10_000;

/**
 * The parent delegates to two children at once; each starts a 20 s job. Once both jobs run, the
 * parent is cancelled `how`; returns the parent's and children's results and how long each took
 * to end after the cancel.
 */
async function cancelParentDuringChildren(how: 'signal' | 'temporal') {
  const events: string[] = [];
  const lead = createScriptedModel([
    {
      content: [
        say('Two long jobs, in parallel.'),
        useTool('north_agent', { task: 'Run the northern job' }, 'call_north'),
        useTool('south_agent', { task: 'Run the southern job' }, 'call_south'),
      ],
    },
  ]);
  const north = createScriptedModel([{ content: [useTool('slow_job', {}, 'call_north_job')] }]);
  const south = createScriptedModel([{ content: [useTool('slow_job', {}, 'call_south_job')] }]);
  const models = modelsByName({ lead, north, south });
  const h = await createHarness(env, { tools: [slowTool(events)], models: { scripted: models } });
  const worker = { description: 'Runs a long job', tools: ['slow_job'] };
  const input: AgentInputInit = {
    task: 'Run both jobs',
    agentName: 'lead',
    model: scripted('lead'),
    agents: {
      north_agent: { ...worker, model: scripted('north') },
      south_agent: { ...worker, model: scripted('south') },
    },
  };
  return h.worker.runUntil(async () => {
    const handle = await h.agents.start(input);
    const childIds = await waitForChildren(env.client, handle.workflowId, 2);
    await pollFor(
      'both slow jobs to start',
      () => (events.filter((e) => e === 'started').length === 2 ? true : undefined),
      30_000,
    );
    const cancelledAt = Date.now();
    if (how === 'signal') await handle.signal(cancelSignal, { reason: 'no longer needed', by: 'alice' });
    else await handle.cancel();
    const timed = async (p: Promise<unknown>) => {
      const value = (await p) as AgentResult;
      return { value, ms: Date.now() - cancelledAt };
    };
    const [parent, ...children] = await Promise.all([
      timed(handle.result()),
      ...childIds.map((id) => timed(h.agents.result(id))),
    ]);
    models.verify();
    return { parent: parent!, children, childIds, events, workflowId: handle.workflowId };
  });
}

describe.concurrent('cancelling a parent cancels its sub-agents', () => {
  for (const how of ['signal', 'temporal'] as const) {
    it(`by ${how}: both children end cancelled promptly, their jobs are aborted, and the parent's chain marks both calls`, async () => {
      const { parent, children, childIds, events, workflowId } = await cancelParentDuringChildren(how);

      // Children: ended `cancelled`, promptly, the job's cancellation seen by the tool.
      expect(childIds).toEqual([
        expect.stringMatching(new RegExp(`^${workflowId}/north_agent-\\d+$`)),
        expect.stringMatching(new RegExp(`^${workflowId}/south_agent-\\d+$`)),
      ]);
      for (const child of children) {
        expect(child.value).toMatchObject({ success: false, terminationReason: 'cancelled' });
        expect(child.ms).toBeLessThan(PROMPT_MS);
        expect(
          resultStep(
            child.value.chain.steps,
            child.value.chain.agentName === 'north_agent' ? 'call_north_job' : 'call_south_job',
          )?.toolResult,
        ).toMatchObject({ success: false });
      }
      expect(events.filter((e) => e === 'started')).toHaveLength(2);
      expect(events.filter((e) => e === 'aborted')).toHaveLength(2);
      expect(events).not.toContain('finished');

      // Parent: cancelled too, and each delegating call has its result, marked cancelled.
      expect(parent.value).toMatchObject({ success: false, terminationReason: 'cancelled' });
      expect(parent.ms).toBeLessThan(PROMPT_MS);
      const runs = parent.value.chain.subAgents ?? [];
      expect(runs.map((r) => [r.callId, r.workflowId, r.status])).toEqual([
        ['call_north', childIds[0], 'cancelled'],
        ['call_south', childIds[1], 'cancelled'],
      ]);
      // Each call's result is the child's own report (not a guess after the parent stopped waiting): its partial answer and spend.
      for (const [index, name] of ['north_agent', 'south_agent'].entries()) {
        const child = children[index]!.value;
        expect(resultStep(parent.value.chain.steps, `call_${name.replace('_agent', '')}`)?.toolResult).toMatchObject({
          success: false,
          result: child.finalAnswer,
          error: `Sub-agent ${name} did not finish its task (it stopped: cancelled).`,
          subAgent: {
            status: 'cancelled',
            terminationReason: 'cancelled',
            workflowId: childIds[index],
            steps: child.chain.steps.length,
          },
        });
      }
      expect(parent.value.delegated).toMatchObject({ runs: 2 });
      if (how === 'signal') {
        expect(
          parent.value.chain.steps.some(
            (s) => s.type === 'thinking' && s.thought.includes('no longer needed, by alice'),
          ),
        ).toBe(true);
        // The children heard why: the reason travels down with the cancel.
        for (const child of children)
          expect(
            child.value.chain.steps.some(
              (s) => s.type === 'thinking' && s.thought.includes('the parent run was cancelled: no longer needed'),
            ),
          ).toBe(true);
      }
    });
  }

  it('waits for a child that is slow to wind down, so its report and spend still reach the parent', async () => {
    const events: string[] = [];
    const lead = createScriptedModel([
      { content: [useTool('stubborn_agent', { task: 'Run the job' }, 'call_stubborn')] },
    ]);
    const stubborn = createScriptedModel([{ content: [useTool('slow_job', {}, 'call_job')] }]);
    const models = modelsByName({ lead, stubborn });
    // The job ignores cancellation for 4 s: longer than one run's own settle window (1.5 s).
    const h = await createHarness(env, {
      tools: [slowTool(events, { honoursCancel: false, ms: 4_000 })],
      models: { scripted: models },
    });
    const result = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        task: 'Run it',
        agentName: 'lead',
        model: scripted('lead'),
        tokenBudget: 50_000,
        agents: { stubborn_agent: { description: 'Runs a job', tools: ['slow_job'], model: scripted('stubborn') } },
      });
      await pollFor('the job to start', () => (events.includes('started') ? true : undefined), 30_000);
      await handle.cancel();
      return handle.result();
    });
    expect(result.terminationReason).toBe('cancelled');
    expect(result.chain.subAgents?.[0]).toMatchObject({ status: 'cancelled', terminationReason: 'cancelled' });
    expect(resultStep(result.chain.steps, 'call_stubborn')?.toolResult.subAgent).toMatchObject({
      agentName: 'stubborn_agent',
      status: 'cancelled',
    });
    expect(result.delegated?.runs).toBe(1);
    expect(result.usage.inputTokens).toBeGreaterThan(lead.calls.length * 100);
  });
});
