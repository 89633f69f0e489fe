import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import { addUsage, totalTokens, zeroUsage, type AgentInputInit, type AgentResult } from '../../../src/domain';
import { callStep, resultStep } from '../../helpers/chain-helpers';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { modelsByName, scripted } from '../../helpers/sub-agent-helpers';
import { testTools } from '../../helpers/test-tools';

const env = useTestEnv();

const specialist = (model: string, description: string) => ({
  description,
  model: scripted(model),
  tools: ['lookup'],
  limits: { maxIterations: 4 },
});

describe.concurrent('sub-agents', () => {
  it('delegates to three specialists in parallel: nested chains, one child failing, spend rolled up exactly', async () => {
    const { tools } = testTools();
    const lead = createScriptedModel([
      {
        content: [
          say('This needs three analyses.'),
          useTool('market_agent', { task: 'Size the market' }, 'call_market'),
          useTool('tech_agent', { task: 'Compare the platforms' }, 'call_tech'),
          useTool('news_agent', { task: 'Collect the news' }, 'call_news'),
        ],
        usage: { inputTokens: 300, outputTokens: 50 },
        costUsd: 0.01,
      },
      {
        content: [useTool('finish', { result: 'Market 2.3B; tech compared; news missing.' })],
        usage: { inputTokens: 400, outputTokens: 30 },
        costUsd: 0.02,
      },
    ]);
    const market = createScriptedModel([
      { content: [useTool('lookup', { key: 'market' })], usage: { inputTokens: 11, outputTokens: 1 }, costUsd: 0.001 },
      {
        content: [useTool('finish', { result: 'Market is 2.3B' })],
        usage: { inputTokens: 12, outputTokens: 2 },
        costUsd: 0.001,
      },
    ]);
    const tech = createScriptedModel([
      {
        content: [useTool('finish', { result: 'Platforms compared' })],
        usage: { inputTokens: 13, outputTokens: 3 },
        costUsd: 0.002,
      },
    ]);
    const news = createScriptedModel([
      {
        content: [useTool('give_up', { reason: 'no news source reachable' })],
        usage: { inputTokens: 14, outputTokens: 4 },
        costUsd: 0.003,
      },
    ]);
    const models = modelsByName({ lead, market, tech, news });
    const h = await createHarness(env, { tools, models: { scripted: models } });
    const input: AgentInputInit = {
      task: 'Research the competitive landscape for AI agent platforms',
      agentName: 'research_lead',
      model: scripted('lead'),
      tokenBudget: 100_000,
      costBudgetUsd: 1,
      agents: {
        market_agent: specialist('market', 'Market size and growth'),
        tech_agent: specialist('tech', 'Technical comparison'),
        news_agent: specialist('news', 'Recent news'),
      },
    };
    const result = await h.worker.runUntil(async () => (await h.agents.start(input)).result());
    models.verify();

    expect(result.terminationReason).toBe('success');
    // The three calls ran as one parallel group that shares the first call's step number.
    const calls = ['call_market', 'call_tech', 'call_news'].map((id) => callStep(result.chain.steps, id)!);
    expect(calls.map((c) => c.parallel)).toEqual(
      [1, 2, 3].map((index) => ({ group: calls[0]!.stepNumber, index, size: 3 })),
    );
    // Each call names its child run, derived from the parent's id and the call's step.
    const parentId = result.chain.chainId;
    for (const call of calls)
      expect(call.toolCall.delegatedTo?.workflowId).toBe(`${parentId}/${call.toolCall.toolName}-${call.stepNumber}`);

    const children: Record<string, AgentResult> = {};
    for (const call of calls)
      children[call.toolCall.toolName] = await h.agents.getHandle(call.toolCall.delegatedTo!.workflowId).result();
    expect(children['market_agent']!.finalAnswer).toBe('Market is 2.3B');
    expect(children['news_agent']!.terminationReason).toBe('failure');

    // Results link to the child run and say how it ended; the failing child is an error observation with its reason.
    const newsResult = resultStep(result.chain.steps, 'call_news')!;
    expect(newsResult.toolResult).toMatchObject({
      success: false,
      subAgent: { agentName: 'news_agent', status: 'failed', terminationReason: 'failure' },
    });
    expect(newsResult.toolResult.error).toContain('failure');
    expect(resultStep(result.chain.steps, 'call_market')!.toolResult).toMatchObject({
      success: true,
      result: 'Market is 2.3B',
      subAgent: { status: 'completed', steps: children['market_agent']!.chain.steps.length },
    });
    const leadSecondRequest = lead.calls[1]!;
    expect(JSON.stringify(leadSecondRequest.messages)).toContain('no news source reachable');

    // Budget roll-up: the parent's ledger is its own calls plus every child's, exactly.
    const childUsage = Object.values(children).reduce((sum, c) => addUsage(sum, c.usage), zeroUsage());
    const own = addUsage(
      { ...zeroUsage(), inputTokens: 300, outputTokens: 50 },
      { ...zeroUsage(), inputTokens: 400, outputTokens: 30 },
    );
    expect(result.usage).toEqual(addUsage(own, childUsage));
    expect(totalTokens(childUsage)).toBe(11 + 1 + 12 + 2 + 13 + 3 + 14 + 4);
    expect(result.costUsd).toBeCloseTo(0.01 + 0.02 + 0.001 + 0.001 + 0.002 + 0.003, 9);
    expect(result.delegated).toMatchObject({ runs: 3, usage: childUsage, iterations: 2 + 1 + 1 });
    // Each child's sub-budget was an equal share of what the parent had left (reserved for the
    // children started before it), the parent keeping one share for itself.
    const left = 100_000 - 350;
    const first = Math.floor(left / 4);
    const second = Math.floor((left - first) / 3);
    const third = Math.floor((left - first - second) / 2);
    expect(result.chain.subAgents?.map((r) => r.budget.tokenBudget)).toEqual([first, second, third]);
    expect(first + second + third).toBeLessThanOrEqual(left - first);
    expect(children['tech_agent']!.chain.task).toBe('Compare the platforms');
  });
});
