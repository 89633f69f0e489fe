import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import type { AgentInputInit, AgentResult } from '../../../src/domain';
import { lastToolResults } from '../../helpers/approval-helpers';
import { callStep, resultStep, thinkingSteps } from '../../helpers/chain-helpers';
import { modelsByName, scripted } from '../../helpers/sub-agent-helpers';
import { childRunIds, finishWithLastResult, neverStarted } from '../../helpers/sub-agent-scripts';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { slowTool, testTools } from '../../helpers/test-tools';

const env = useTestEnv();

const blockedNotes = (result: AgentResult) =>
  thinkingSteps(result.chain.steps, 'delegation_blocked').map((s) => s.thought);

/** The child run a parent's call started (or would have started). */
const delegatedId = (result: AgentResult, callId: string): string => {
  const call = callStep(result.chain.steps, callId);
  if (!call) throw new Error(`No call ${callId} in ${result.chain.chainId}`);
  return (
    call.toolCall.delegatedTo?.workflowId ?? `${result.chain.chainId}/${call.toolCall.toolName}-${call.stepNumber}`
  );
};

/**
 * lead → mid_agent → leaf_agent, the same script at any depth limit: the leaf looks a key up when
 * it runs; each level finishes with what the level below said, so the answer shows how far it got.
 */
async function delegateTwoDown(maxDelegationDepth: number, leafRuns: boolean) {
  const { tools } = testTools();
  const lead = createScriptedModel([
    { content: [useTool('mid_agent', { task: 'Get the depth figure' }, 'call_mid')] },
    { content: finishWithLastResult() },
  ]);
  const mid = createScriptedModel([
    { content: [useTool('leaf_agent', { task: 'Look up "depth"' }, 'call_leaf')] },
    { content: finishWithLastResult('mid: ') },
  ]);
  const leaf = createScriptedModel(
    leafRuns ? [{ content: [useTool('lookup', { key: 'depth' })] }, { content: finishWithLastResult('leaf: ') }] : [],
  );
  const models = modelsByName({ lead, mid, leaf });
  const h = await createHarness(env, { tools, models: { scripted: models } });
  const input: AgentInputInit = {
    task: 'Find the depth figure',
    agentName: 'lead',
    model: scripted('lead'),
    maxDelegationDepth,
    agents: {
      mid_agent: { description: 'Coordinates the look-up', model: scripted('mid'), tools: ['leaf_agent'] },
      leaf_agent: { description: 'Looks figures up', model: scripted('leaf'), tools: ['lookup'] },
    },
  };
  const result = await h.worker.runUntil(async () => (await h.agents.start(input)).result());
  models.verify();
  const midId = delegatedId(result, 'call_mid');
  const midResult = await h.agents.result(midId);
  return { result, midId, midResult, leafId: delegatedId(midResult, 'call_leaf'), mid };
}

describe.concurrent('sub-agent guards', () => {
  it('a cycle (agent_a → agent_b → agent_a) is refused in agent_b: a visible note, an error its model reads, no grandchild, and the tree finishes', async () => {
    const { tools } = testTools();
    const root = createScriptedModel([
      { content: [useTool('agent_b', { task: 'Double-check the Q3 figures' }, 'call_b')] },
      { content: finishWithLastResult('B said: ') },
    ]);
    const b = createScriptedModel([
      {
        content: [
          say('agent_a knows these figures.'),
          useTool('agent_a', { task: 'Check the Q3 figures' }, 'call_loop'),
        ],
      },
      { content: [useTool('finish', { result: 'Checked the Q3 figures myself.' })] },
    ]);
    // agent_a as a child would use this model; it must never be called.
    const a = createScriptedModel([]);
    const models = modelsByName({ root, a, b });
    const h = await createHarness(env, { tools, models: { scripted: models } });
    const input: AgentInputInit = {
      task: 'Report the Q3 figures',
      agentName: 'agent_a',
      model: scripted('root'),
      agents: {
        agent_a: { description: 'Knows the figures', model: scripted('a') },
        agent_b: { description: 'Double-checks figures', model: scripted('b'), tools: ['agent_a'] },
      },
    };
    const result = await h.worker.runUntil(async () => (await h.agents.start(input)).result());
    models.verify();

    // The root was not offered itself: only agent_b (and registered tools) as tools.
    expect(root.calls[0]!.tools.map((t) => t.name)).not.toContain('agent_a');
    // agent_b's list names agent_a explicitly, so it was offered, and the call is refused visibly.
    expect(b.calls[0]!.tools.map((t) => t.name)).toContain('agent_a');

    const childId = delegatedId(result, 'call_b');
    const child = await h.agents.result(childId);
    const refusal =
      'Delegation refused: agent_a → agent_b → agent_a would be a cycle (the full path is agent_a → agent_b → agent_a). Do this part yourself or ask a different agent.';
    expect(blockedNotes(child)).toEqual([refusal]);
    expect(resultStep(child.chain.steps, 'call_loop')!.toolResult).toMatchObject({ success: false, error: refusal });
    expect(lastToolResults(b.calls[1]!.messages)).toEqual([
      { type: 'tool_result', toolUseId: 'call_loop', content: refusal, isError: true },
    ]);

    // No grandchild: the would-be id was never started, and the child's history starts no child.
    const wouldBe = delegatedId(child, 'call_loop');
    expect(wouldBe).toBe(`${childId}/agent_a-${callStep(child.chain.steps, 'call_loop')!.stepNumber}`);
    expect(child.chain.subAgents).toEqual([
      expect.objectContaining({ callId: 'call_loop', agentName: 'agent_a', workflowId: wouldBe, status: 'refused' }),
    ]);
    expect(await neverStarted(env.client, wouldBe)).toBe(true);
    expect(await childRunIds(env.client, childId)).toEqual([]);
    expect(child.delegated).toBeUndefined();

    // Everything still finished.
    expect(child).toMatchObject({
      success: true,
      terminationReason: 'success',
      finalAnswer: 'Checked the Q3 figures myself.',
    });
    expect(result).toMatchObject({ success: true, finalAnswer: 'B said: Checked the Q3 figures myself.' });
    expect(result.chain.subAgents).toEqual([
      expect.objectContaining({ callId: 'call_b', agentName: 'agent_b', status: 'completed' }),
    ]);
    expect(blockedNotes(result)).toEqual([]);
  });

  it('maxDelegationDepth 1: the child may delegate no further; the grandchild is refused with the depth message', async () => {
    const { result, midResult, leafId, mid } = await delegateTwoDown(1, false);
    const refusal =
      'Delegation refused: lead → mid_agent → leaf_agent would be 2 levels deep, and the limit is 1. Do this part yourself.';
    expect(blockedNotes(midResult)).toEqual([refusal]);
    expect(lastToolResults(mid.calls[1]!.messages)).toEqual([
      { type: 'tool_result', toolUseId: 'call_leaf', content: refusal, isError: true },
    ]);
    expect(midResult.chain.subAgents).toEqual([
      expect.objectContaining({ agentName: 'leaf_agent', status: 'refused' }),
    ]);
    expect(await neverStarted(env.client, leafId)).toBe(true);
    expect(result).toMatchObject({ success: true, finalAnswer: `mid: ${refusal}` });
    // Only the child's own iterations were delegated.
    expect(result.delegated).toMatchObject({ runs: 1, iterations: 2 });
  });

  it('maxDelegationDepth 2: the same script goes through and the grandchild runs', async () => {
    const { result, midId, midResult, leafId } = await delegateTwoDown(2, true);
    expect(blockedNotes(midResult)).toEqual([]);
    expect(leafId).toBe(`${midId}/leaf_agent-${callStep(midResult.chain.steps, 'call_leaf')!.stepNumber}`);
    const leaf = (await env.client.workflow.getHandle(leafId).result()) as AgentResult;
    expect(leaf).toMatchObject({ success: true, finalAnswer: 'leaf: {"key":"depth","value":50}' });
    expect(midResult.chain.subAgents).toEqual([
      expect.objectContaining({ agentName: 'leaf_agent', workflowId: leafId, status: 'completed' }),
    ]);
    expect(result).toMatchObject({ success: true, finalAnswer: 'mid: leaf: {"key":"depth","value":50}' });
    // The grandchild's iterations reach the root through its parent: lead delegated 2 (mid) + 2 (leaf).
    expect(result.delegated).toMatchObject({ runs: 1, iterations: 4 });
  });

  it('a budget too small to share is refused with the numbers, and no child is started', async () => {
    const { tools } = testTools();
    // 4,000 tokens, 2,100 spent by the first call: 1,900 left, half of it (950) for the child: below the 1,024 minimum.
    const lead = createScriptedModel([
      {
        content: [useTool('helper_agent', { task: 'Summarise the notes' }, 'call_helper')],
        usage: { inputTokens: 2_000, outputTokens: 100 },
      },
      {
        content: [useTool('finish', { result: 'Summarised the notes myself.' })],
        usage: { inputTokens: 50, outputTokens: 10 },
      },
    ]);
    const helper = createScriptedModel([]);
    const models = modelsByName({ lead, helper });
    const h = await createHarness(env, { tools, models: { scripted: models } });
    const input: AgentInputInit = {
      task: 'Summarise the notes',
      agentName: 'lead',
      model: scripted('lead'),
      tools: ['helper_agent'],
      tokenBudget: 4_000,
      agents: { helper_agent: { description: 'Summarises', model: scripted('helper') } },
    };
    const handle = await h.agents.start(input);
    const result = await h.worker.runUntil(handle.result());
    models.verify();

    const refusal =
      "Delegation refused: only 950 tokens of the run's budget could go to it (at least 1024 needed). Do this part yourself, or finish with what you have.";
    expect(blockedNotes(result)).toEqual([refusal]);
    expect(resultStep(result.chain.steps, 'call_helper')!.toolResult).toMatchObject({ success: false, error: refusal });
    expect(lastToolResults(lead.calls[1]!.messages)).toEqual([
      { type: 'tool_result', toolUseId: 'call_helper', content: refusal, isError: true },
    ]);
    expect(result.chain.subAgents).toEqual([expect.objectContaining({ callId: 'call_helper', status: 'refused' })]);
    expect(await childRunIds(env.client, handle.workflowId)).toEqual([]);
    expect(await neverStarted(env.client, delegatedId(result, 'call_helper'))).toBe(true);
    expect(result).toMatchObject({
      success: true,
      finalAnswer: 'Summarised the notes myself.',
      usage: { inputTokens: 2_050, outputTokens: 110 },
    });
    expect(result.delegated).toBeUndefined();
  });

  it("a child's own time limit: it ends `timeout`, the parent reads an error observation with the child's partial answer, and goes on", async () => {
    const events: string[] = [];
    const { tools } = testTools();
    const lead = createScriptedModel([
      { content: [useTool('slow_agent', { task: 'Collect the figures' }, 'call_slow_agent')] },
      { content: finishWithLastResult('parent saw: ') },
    ]);
    // The child looks one figure up, then starts a 20 s job; its 2 s limit ends it without another model call.
    const slow = createScriptedModel([
      { content: [useTool('lookup', { key: 'partial' }, 'call_lookup')] },
      { content: [useTool('slow_job', {}, 'call_job')] },
    ]);
    const models = modelsByName({ lead, slow });
    const h = await createHarness(env, { tools: [...tools, slowTool(events)], models: { scripted: models } });
    const input: AgentInputInit = {
      task: 'Collect the figures',
      agentName: 'lead',
      model: scripted('lead'),
      agents: {
        slow_agent: {
          description: 'Collects figures slowly',
          model: scripted('slow'),
          tools: ['lookup', 'slow_job'],
          limits: { runTimeoutMs: 2_000 },
        },
      },
    };
    const result = await h.worker.runUntil(async () => (await h.agents.start(input)).result());
    models.verify();

    const childId = delegatedId(result, 'call_slow_agent');
    const child = await h.agents.result(childId);
    expect(child).toMatchObject({ success: false, terminationReason: 'timeout' });
    expect(child.executionTimeMs).toBeGreaterThanOrEqual(2_000);
    expect(child.executionTimeMs).toBeLessThan(10_000);
    expect(events).toEqual(['started', 'aborted']);
    expect(child.finalAnswer).toContain('{"key":"partial","value":70}');
    expect(resultStep(child.chain.steps, 'call_job')!.toolResult).toMatchObject({ success: false });

    // The parent's chain keeps the partial answer as the call's result, marked as an error.
    const error = 'Sub-agent slow_agent did not finish its task (it stopped: timeout).';
    expect(resultStep(result.chain.steps, 'call_slow_agent')!.toolResult).toMatchObject({
      success: false,
      result: child.finalAnswer,
      error,
      subAgent: {
        agentName: 'slow_agent',
        workflowId: childId,
        status: 'failed',
        terminationReason: 'timeout',
        budget: { runTimeoutMs: 2_000 },
      },
    });
    const observation = `${error} What it had so far: ${child.finalAnswer}`;
    expect(lastToolResults(lead.calls[1]!.messages)).toEqual([
      { type: 'tool_result', toolUseId: 'call_slow_agent', content: observation, isError: true },
    ]);
    expect(result).toMatchObject({ success: true, finalAnswer: `parent saw: ${observation}` });
  });
});
