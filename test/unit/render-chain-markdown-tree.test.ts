import { describe, expect, it } from 'vitest';
import { renderChainMarkdown, type ReasoningChain } from '../../src/domain';

const base = {
  stepId: 's',
  timestamp: '2026-11-22T00:00:00.000Z',
  iteration: 1,
  visibility: { level: 'full' as const },
};
const chain: ReasoningChain = {
  schemaVersion: 1,
  chainId: 'lead',
  agentName: 'weather_lead',
  task: 'Compare',
  startedAt: '2026-11-22T00:00:00.000Z',
  status: 'tool_calling',
  plan: {
    version: 1,
    source: 'model',
    tasks: [{ id: 't1', description: 'Ask the agents', dependencies: [], requiredTools: [], status: 'in_progress' }],
  },
  subAgents: [
    {
      callId: 'c1',
      agentName: 'weather_agent',
      workflowId: 'lead/weather_agent-1',
      status: 'running',
      budget: { maxIterations: 4 },
    },
  ],
  steps: [
    {
      ...base,
      stepNumber: 1,
      type: 'tool_call',
      parallel: { group: 1, index: 1, size: 2 },
      toolCall: {
        toolType: 'sub_agent',
        toolName: 'weather_agent',
        arguments: { task: 'Paris' },
        correlationId: 'c1',
        delegatedTo: { agentName: 'weather_agent', workflowId: 'lead/weather_agent-1' },
      },
    },
    {
      ...base,
      stepNumber: 2,
      type: 'thinking',
      purpose: 'delegation_blocked',
      thought: 'Delegation refused: a → b → a would be a cycle.',
    },
  ],
};

describe('Web UI details of a run with sub-agents', () => {
  it('links each child run to its Web UI page, tags parallel calls, and shows the plan', () => {
    const md = renderChainMarkdown(chain, 40, 2, (id) => `/namespaces/default/workflows/${encodeURIComponent(id)}`);
    // The link text is escaped so it renders as the id itself.
    expect(md).toContain('[lead/weather\\_agent\\-1](/namespaces/default/workflows/lead%2Fweather_agent-1)');
    expect(md).toContain('1. ∥1.1 **Delegate** to `weather_agent`');
    expect(md).toContain('**Plan** v1 · 0/1 done');
    expect(md).toContain('- ▶ t1 Ask the agents');
    expect(md).toContain('**Delegation blocked** Delegation refused');
  });

  it('without a link target, names child runs as code', () => {
    expect(renderChainMarkdown(chain)).toContain('`lead/weather_agent-1`');
  });
});
