import { describe, expect, it } from 'vitest';
import { renderPlan } from '../../src/cli/render/render-plan';
import { renderStep, renderSummary } from '../../src/cli/render/render-step';
import type { AgentResult, Plan, ReasoningStep, SubAgentRun } from '../../src/domain';

const plain = (s: string): string => s.replace(/\u001b\[\d+m/g, '');
const base = {
  stepId: 's',
  timestamp: '2026-01-01T00:00:00.000Z',
  iteration: 2,
  visibility: { level: 'full' },
} as const;
const render = (step: Record<string, unknown>): string =>
  plain(renderStep({ ...base, stepNumber: 5, ...step } as ReasoningStep));

const researcher: SubAgentRun = {
  callId: 'toolu_r',
  agentName: 'researcher',
  workflowId: 'agent-1/researcher-5',
  runId: 'r1',
  status: 'completed',
  budget: { maxIterations: 5 },
  usage: { inputTokens: 1000, outputTokens: 234, cacheReadTokens: 0, cacheWriteTokens: 0 },
  costUsd: 0.0123,
  iterations: 3,
  terminationReason: 'success',
  steps: 7,
};
const plan: Plan = {
  version: 2,
  source: 'repaired',
  tasks: [
    {
      id: 't1',
      description: 'Find the failing test',
      dependencies: [],
      requiredTools: [],
      status: 'completed',
      note: 'test_parse fails',
    },
    { id: 't2', description: 'Reproduce it', dependencies: ['t1'], requiredTools: [], status: 'in_progress' },
    { id: 't3', description: 'Fix the parser', dependencies: ['t2'], requiredTools: [], status: 'pending' },
    { id: 't4', description: 'Ask the owner', dependencies: [], requiredTools: [], status: 'failed' },
    { id: 't5', description: 'Ship it', dependencies: ['t4'], requiredTools: [], status: 'blocked' },
  ],
};

describe('renderStep with sub-agents, parallel calls and planning', () => {
  it('shows where a sub_agent call was delegated', () => {
    const call = {
      type: 'tool_call',
      toolCall: {
        toolType: 'sub_agent',
        toolName: 'researcher',
        arguments: { task: 'Find it' },
        correlationId: 'toolu_r',
        delegatedTo: { agentName: 'researcher', workflowId: 'agent-1/researcher-5' },
      },
    };
    expect(render(call).split('\n')).toEqual([
      '  5 Action       researcher {"task":"Find it"}',
      '                 → delegated to researcher (run agent-1/researcher-5)',
    ]);
  });

  it("summarises a sub-agent's outcome under its result, with the command that shows its chain", () => {
    const result = {
      type: 'tool_result',
      toolResult: {
        correlationId: 'toolu_r',
        success: true,
        result: 'Paris is 21°C',
        durationMs: 9000,
        subAgent: researcher,
      },
    };
    expect(render(result).split('\n')).toEqual([
      '  5 Observation  Paris is 21°C',
      '                 ↳ researcher success: 7 steps, 1,234 tokens, $0.0123 — npx thoughtline chain agent-1/researcher-5',
    ]);
    const failed = {
      type: 'tool_result',
      toolResult: {
        correlationId: 'toolu_r',
        success: false,
        result: null,
        error: 'gave up',
        durationMs: 1,
        subAgent: { ...researcher, status: 'failed', terminationReason: 'max_iterations' },
      },
    };
    expect(render(failed)).toContain('↳ researcher max_iterations: 7 steps');
  });

  it('points nowhere for a refused delegation (no child ran)', () => {
    const { usage: _u, costUsd: _c, steps: _s, terminationReason: _t, runId: _r, ...started } = researcher;
    const refused = {
      type: 'tool_result',
      toolResult: {
        correlationId: 'toolu_r',
        success: false,
        result: null,
        error: 'depth limit',
        durationMs: 0,
        subAgent: { ...started, status: 'refused' },
      },
    };
    expect(render(refused).split('\n')[1]).toBe('                 ↳ researcher refused');
  });

  it('tags calls of one turn that ran concurrently', () => {
    const call = {
      type: 'tool_call',
      parallel: { group: 5, index: 2, size: 3 },
      toolCall: { toolType: 'external', toolName: 'get_weather', arguments: { city: 'Oslo' }, correlationId: 'c2' },
    };
    expect(render(call)).toBe('  5 Action       [parallel 5 · 2/3] get_weather {"city":"Oslo"}');
    const result = {
      type: 'tool_result',
      parallel: { group: 5, index: 2, size: 3 },
      toolResult: { correlationId: 'c2', success: false, result: null, error: 'timeout', durationMs: 3 },
    };
    expect(render(result)).toBe('  5 Observation  [parallel 5 · 2/3] timeout');
  });

  it('renders a plan step as a checklist, and labels reflections and blocked delegations', () => {
    expect(render({ type: 'thinking', thought: 'Planned 5 tasks', purpose: 'plan', plan }).split('\n')).toEqual([
      '  5 Plan v2      Planned 5 tasks',
      '                 ✓ t1 Find the failing test (test_parse fails)',
      '                 ▶ t2 Reproduce it',
      '                 ○ t3 Fix the parser',
      '                 ✗ t4 Ask the owner',
      '                 ⊘ t5 Ship it',
    ]);
    expect(render({ type: 'thinking', thought: 'On track', purpose: 'reflection' })).toBe('  5 Reflection   On track');
    expect(render({ type: 'thinking', thought: 'researcher is my ancestor', purpose: 'delegation_blocked' })).toBe(
      '  5 Blocked      researcher is my ancestor',
    );
    expect(render({ type: 'thinking', thought: 'Hmm' })).toBe('  5 Thought      Hmm');
  });

  it('keeps a hidden step to one line whatever it holds', () => {
    expect(
      render({
        type: 'tool_result',
        visibility: { level: 'hidden' },
        toolResult: { correlationId: 'x', success: true, result: 1, durationMs: 1, subAgent: researcher },
      }),
    ).toBe('  5 (hidden tool_result)');
  });
});

describe('renderPlan', () => {
  it('counts progress and marks the current task of a status progress', () => {
    const progress = {
      version: 1,
      source: 'template' as const,
      completed: 1,
      total: 3,
      current: 't2',
      tasks: plan.tasks.slice(0, 3).map(({ id, description, dependencies }, i) => ({
        id,
        description,
        dependencies,
        status: i === 0 ? ('completed' as const) : ('pending' as const),
      })),
    };
    expect(renderPlan(progress).split('\n')).toEqual([
      'Plan v1 · 1/3 done · template',
      '  ✓ t1 Find the failing test',
      '  ▶ t2 Reproduce it',
      '  ○ t3 Fix the parser',
    ]);
    expect(renderPlan({ ...plan, source: 'model' }).split('\n')[0]).toBe('Plan v2 · 1/5 done');
  });
});

describe('renderSummary', () => {
  it("adds the sub-agents' share of the spend and the final plan", () => {
    const result = {
      success: true,
      finalAnswer: 'done',
      terminationReason: 'success',
      usage: { inputTokens: 5000, outputTokens: 800, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0.05,
      iterations: 4,
      modelCalls: 4,
      toolCalls: 3,
      executionTimeMs: 1200,
      delegated: {
        runs: 2,
        usage: { inputTokens: 3000, outputTokens: 300, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: 0.02,
        iterations: 6,
      },
      plan: { ...plan, source: 'model' },
    } as unknown as AgentResult;
    const lines = plain(renderSummary(result)).split('\n');
    expect(lines).toContain('Sub-agents: 2 runs, 6 iterations, 3000 in / 300 out, $0.020000 (included above)');
    expect(lines).toContain('Plan v2 · 1/5 done');
  });
});
