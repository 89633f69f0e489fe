import { describe, expect, it } from 'vitest';
import { renderStatus } from '../../src/cli/render/render-status';
import { AgentStatus, type ApprovalRecord } from '../../src/domain';

const approval = (
  callId: string,
  toolName: string,
  from?: { workflowId: string; agentPath: string[] },
): ApprovalRecord => ({
  callId,
  stepId: 's1',
  toolName,
  arguments: { n: 1 },
  argumentsHash: 'h',
  reason: 'always requires approval',
  approverRoles: [],
  runId: 'r',
  requestedAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-01T01:00:00.000Z',
  status: 'pending',
  ...(from ?? {}),
});
const base = {
  status: 'waiting',
  iteration: 3,
  maxIterations: 10,
  steps: 9,
  usage: {},
  costUsd: 0.01,
  model: 'claude-sonnet-4-6',
};

describe('renderStatus', () => {
  it('prints the run at a glance, the plan checklist, the sub-agents and whose run each pending call waits in', () => {
    const status = AgentStatus.parse({
      ...base,
      plan: {
        version: 1,
        source: 'model',
        completed: 2,
        total: 5,
        current: 't3',
        tasks: [
          { id: 't1', description: 'Collect sources', status: 'completed' },
          { id: 't2', description: 'Summarise them', status: 'completed' },
          { id: 't3', description: 'Draft the report', status: 'in_progress' },
          { id: 't4', description: 'Check figures', status: 'failed' },
          { id: 't5', description: 'Publish', status: 'blocked' },
        ],
      },
      subAgents: [
        {
          callId: 'c1',
          agentName: 'researcher',
          workflowId: 'agent-1/researcher-4',
          status: 'completed',
          terminationReason: 'success',
          budget: { maxIterations: 5 },
          steps: 8,
          costUsd: 0.004,
        },
        {
          callId: 'c2',
          agentName: 'writer',
          workflowId: 'agent-1/writer-9',
          status: 'running',
          budget: { maxIterations: 5 },
        },
      ],
      pendingApprovals: [
        approval('toolu_own', 'deploy'),
        approval('toolu_w', 'write_file', { workflowId: 'agent-1/writer-9', agentPath: ['orchestrator', 'writer'] }),
      ],
    });
    const text = renderStatus('agent-1', status);
    const [glance, ...sections] = text.trimEnd().split('\n\n');
    expect(glance).toBe(
      [
        'Run agent-1: waiting',
        'Iteration:   3 of 10 · 9 steps',
        'Model:       claude-sonnet-4-6',
        'Tokens:      0 (0 in, 0 out)',
        'Cost:        $0.0100',
      ].join('\n'),
    );
    // Human text, not a JSON dump (`status --json` prints the record).
    expect(text).not.toMatch(/^\{/);
    expect(sections).toEqual([
      [
        'Plan v1 · 2/5 done',
        '  ✓ t1 Collect sources',
        '  ✓ t2 Summarise them',
        '  ▶ t3 Draft the report',
        '  ✗ t4 Check figures',
        '  ⊘ t5 Publish',
      ].join('\n'),
      [
        'Sub-agents (2):',
        '  researcher  agent-1/researcher-4  completed (success) · 8 steps, $0.0040',
        '  writer  agent-1/writer-9  running',
      ].join('\n'),
      [
        'Pending approvals (2):',
        'toolu_own  deploy  (waiting since 2026-01-01T00:00:00.000Z, expires 2026-01-01T01:00:00.000Z)',
        '  why: always requires approval',
        '  arguments: {"n":1}',
        'toolu_w  write_file  (waiting since 2026-01-01T00:00:00.000Z, expires 2026-01-01T01:00:00.000Z)',
        '  why: always requires approval',
        '  arguments: {"n":1}',
        '  run: agent-1/writer-9 (orchestrator › writer) · decide with: thoughtline approve|reject agent-1/writer-9 toolu_w',
      ].join('\n'),
    ]);
  });

  it('says what the run waits for, its budgets, queued steering and a pending cancel', () => {
    const status = AgentStatus.parse({
      ...base,
      usage: { inputTokens: 1200, outputTokens: 300, cacheReadTokens: 50 },
      tokenBudget: 20_000,
      costBudgetUsd: 0.5,
      waitingFor: 'approval of deploy (toolu_1)',
      steeringQueued: 2,
      cancelRequested: 'wrong branch',
      continuations: 1,
    });
    const glance = renderStatus('agent-3', status).split('\n\n')[0]!;
    expect(glance.split('\n')).toEqual([
      'Run agent-3: waiting',
      'Iteration:   3 of 10 · 9 steps · continued 1×',
      'Model:       claude-sonnet-4-6',
      'Tokens:      1,550 of 20,000 (1,200 in, 300 out, 50 cache read, 0 cache write)',
      'Cost:        $0.0100 of $0.5000',
      'Waiting for: approval of deploy (toolu_1)',
      'Steering:    2 instructions queued for the next thought',
      'Cancel:      requested (wrong branch); the run finishes its step and summarises',
    ]);
  });

  it('says when nothing waits, and how to answer an open question; no plan or sub-agent sections without them', () => {
    const status = AgentStatus.parse({
      ...base,
      openQuestion: { callId: 'q1', question: 'Which year?', askedAt: 'a', expiresAt: 'b' },
    });
    const sections = renderStatus('agent-2', status).trimEnd().split('\n\n').slice(1);
    expect(sections).toEqual([
      'No calls awaiting approval.',
      'Open question (q1): Which year?\nAnswer with: npx thoughtline answer agent-2 "<text>"',
    ]);
  });

  it("the end user's status shows no tokens, no cost and no operator command (as its chain view)", () => {
    const status = AgentStatus.parse({
      ...base,
      pendingApprovals: [
        approval('toolu_w', 'write_file', { workflowId: 'agent-1/writer-9', agentPath: ['orchestrator', 'writer'] }),
      ],
    });
    const user = renderStatus('agent-1', status, 'end_user');
    expect(user).not.toMatch(/Tokens:|Cost:|thoughtline approve/);
    expect(user).toContain('run: agent-1/writer-9 (orchestrator › writer)\n');
    const developer = renderStatus('agent-1', status, 'developer');
    expect(developer).toMatch(/Tokens: .*\nCost: /);
    expect(developer).toContain('decide with: thoughtline approve|reject agent-1/writer-9 toolu_w');
  });
});
