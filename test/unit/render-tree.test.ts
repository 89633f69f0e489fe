import { WorkflowNotFoundError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { loadAgentTree, type AgentTreeNode } from '../../src/client/chain/agent-tree';
import { renderTree } from '../../src/cli/render/render-tree';
import { AgentStatus, type ApprovalRecord, type SubAgentRun } from '../../src/domain';

const plain = (s: string): string => s.replace(/\u001b\[\d+m/g, '');

const ROOT = 'agent-1';
const RESEARCHER = 'agent-1/researcher-4';
const WRITER = 'agent-1/writer-9';
const FACT_CHECKER = 'agent-1/researcher-4/fact_checker-3';
const GONE = 'agent-1/summariser-12';
const REFUSED = 'agent-1/coder-15';

const usage = (inputTokens: number, outputTokens: number) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});
const status = (fields: Partial<AgentStatus> = {}): AgentStatus =>
  AgentStatus.parse({
    status: 'thinking',
    iteration: 1,
    maxIterations: 10,
    steps: 3,
    usage: usage(100, 20),
    costUsd: 0.001,
    model: 'claude-sonnet-4-6',
    ...fields,
  });
const subRun = (agentName: string, workflowId: string, fields: Partial<SubAgentRun> = {}): SubAgentRun => ({
  callId: `toolu_${agentName}`,
  agentName,
  workflowId,
  status: 'running',
  budget: { maxIterations: 5, tokenBudget: 20_000, costBudgetUsd: 0.5 },
  ...fields,
});
const approval = (callId: string, toolName: string, workflowId?: string): ApprovalRecord => ({
  callId,
  stepId: 's1',
  toolName,
  arguments: {},
  argumentsHash: 'h',
  reason: 'always',
  approverRoles: [],
  runId: 'r',
  requestedAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-01T01:00:00.000Z',
  status: 'pending',
  ...(workflowId ? { workflowId, agentPath: ['orchestrator'] } : {}),
});

const researcherRun = subRun('researcher', RESEARCHER, {
  runId: 'r-res',
  status: 'completed',
  terminationReason: 'success',
  iterations: 3,
  steps: 12,
  usage: usage(4000, 1000),
  costUsd: 0.02,
});
const statuses: Record<string, AgentStatus> = {
  [ROOT]: status({
    status: 'waiting',
    iteration: 4,
    usage: usage(10_000, 2_345),
    costUsd: 0.0612,
    plan: {
      version: 1,
      source: 'model',
      completed: 2,
      total: 5,
      tasks: [{ id: 't1', description: 'x', status: 'completed', dependencies: [] }],
    },
    subAgents: [
      researcherRun,
      subRun('writer', WRITER, { runId: 'r-wri' }),
      subRun('summariser', GONE, { runId: 'r-gone' }),
      subRun('coder', REFUSED, { status: 'refused' }),
    ],
    // The whole tree's pending calls: the writer's, and one from a child that cannot be read.
    pendingApprovals: [approval('toolu_w', 'write_file', WRITER), approval('toolu_s', 'send_mail', GONE)],
  }),
  [RESEARCHER]: status({
    status: 'completed',
    iteration: 3,
    maxIterations: 5,
    usage: usage(4000, 1000),
    costUsd: 0.02,
    subAgents: [
      subRun('fact_checker', FACT_CHECKER, { status: 'failed', terminationReason: 'max_iterations', iterations: 2 }),
    ],
  }),
  [WRITER]: status({
    status: 'waiting',
    iteration: 2,
    maxIterations: 5,
    usage: usage(500, 100),
    costUsd: 0.003,
    pendingApprovals: [approval('toolu_w', 'write_file')],
  }),
  [FACT_CHECKER]: status({ status: 'failed', iteration: 2, maxIterations: 2, usage: usage(300, 50), costUsd: 0.002 }),
};

function fakeReaders(read: string[] = []) {
  return {
    status: async (id: string): Promise<AgentStatus> => {
      read.push(id);
      const s = statuses[id];
      if (!s) throw new WorkflowNotFoundError(`workflow not found: ${id}`, id, undefined);
      return s;
    },
    agentName: async (id: string): Promise<string> => (id === ROOT ? 'orchestrator' : 'nope'),
  };
}

describe('loadAgentTree', () => {
  it('walks status.subAgents down the tree, keeping going past a child that cannot be read', async () => {
    const read: string[] = [];
    const tree = await loadAgentTree(ROOT, fakeReaders(read));
    expect(tree).toMatchObject({ workflowId: ROOT, agentName: 'orchestrator', status: statuses[ROOT] });
    expect(tree.children.map((c) => [c.agentName, c.workflowId, c.error])).toEqual([
      ['researcher', RESEARCHER, undefined],
      ['writer', WRITER, undefined],
      ['summariser', GONE, 'not found'],
      ['coder', REFUSED, undefined],
    ]);
    expect(tree.children[0]!.children.map((c) => c.workflowId)).toEqual([FACT_CHECKER]);
    expect(tree.children[0]!.run).toEqual(researcherRun);
    // A refused child never started: nothing to ask.
    expect(read).not.toContain(REFUSED);
    expect(tree.children[3]).toEqual({
      workflowId: REFUSED,
      agentName: 'coder',
      run: statuses[ROOT]!.subAgents[3],
      children: [],
    });
  });

  it('fails only when the root cannot be read; an unreadable root name is left out', async () => {
    await expect(loadAgentTree('agent-missing', fakeReaders())).rejects.toBeInstanceOf(WorkflowNotFoundError);
    const tree = await loadAgentTree(WRITER, {
      ...fakeReaders(),
      agentName: async () => Promise.reject(new Error('no worker')),
    });
    expect(tree.agentName).toBeUndefined();
    expect(tree.children).toEqual([]);
  });

  it('shows a run listed twice once, so a bad record cannot loop', async () => {
    const loop = status({ subAgents: [subRun('self', ROOT), subRun('w', WRITER), subRun('w', WRITER)] });
    const tree = await loadAgentTree(ROOT, { status: async (id) => (id === ROOT ? loop : statuses[id]!) });
    expect(tree.children.map((c) => [c.workflowId, c.status !== undefined])).toEqual([
      [ROOT, false],
      [WRITER, true],
      [WRITER, false],
    ]);
  });

  it('reads a run without subAgents (from before sub-agents) as a leaf', async () => {
    const { subAgents: _, ...old } = status();
    const tree = await loadAgentTree(ROOT, { status: async () => old as AgentStatus });
    expect(tree.children).toEqual([]);
  });
});

describe('renderTree', () => {
  it('prints one indented line per run with state, iterations, spend, sub-budget, plan and pending calls', async () => {
    const tree = await loadAgentTree(ROOT, fakeReaders());
    expect(plain(renderTree(tree)).split('\n')).toEqual([
      'orchestrator  agent-1  waiting · 4/10 iterations · 12,345 tokens · $0.0612 · plan 2/5',
      '├─ researcher  agent-1/researcher-4  completed (success) · 3/5 iterations · 5,000 tokens · $0.0200 · budget 5 iterations, 20,000 tokens, $0.5000',
      '│  └─ fact_checker  agent-1/researcher-4/fact_checker-3  failed (max_iterations) · 2/2 iterations · 350 tokens · $0.0020 · budget 5 iterations, 20,000 tokens, $0.5000',
      '├─ writer  agent-1/writer-9  waiting · 2/5 iterations · 600 tokens · $0.0030 · budget 5 iterations, 20,000 tokens, $0.5000',
      '│      approval pending: write_file (toolu_w)',
      '├─ summariser  agent-1/summariser-12  running · not readable: not found · budget 5 iterations, 20,000 tokens, $0.5000',
      '│      approval pending: send_mail (toolu_s)',
      '└─ coder  agent-1/coder-15  refused · budget 5 iterations, 20,000 tokens, $0.5000',
    ]);
  });

  it("shows an unreadable ended child's recorded spend, and a root's own pending call under it", () => {
    const tree: AgentTreeNode = {
      workflowId: ROOT,
      status: status({ pendingApprovals: [approval('toolu_1', 'deploy')], cancelRequested: 'too slow' }),
      children: [
        {
          workflowId: RESEARCHER,
          agentName: 'researcher',
          run: researcherRun,
          error: 'no worker answered',
          children: [],
        },
      ],
    };
    expect(plain(renderTree(tree)).split('\n')).toEqual([
      '(agent)  agent-1  thinking · cancel requested · 1/10 iterations · 120 tokens · $0.0010',
      '│   approval pending: deploy (toolu_1)',
      '└─ researcher  agent-1/researcher-4  completed (success) · not readable: no worker answered · 3 iterations · 12 steps, 5,000 tokens, $0.0200 · budget 5 iterations, 20,000 tokens, $0.5000',
    ]);
  });

  it('shows where a remote agent’s linked chain is, under its node', () => {
    const remote: SubAgentRun = {
      callId: 'call_b',
      agentName: 'researcher_remote',
      workflowId: 'agent-1/researcher_remote-2',
      status: 'completed',
      budget: { maxIterations: 5 },
      steps: 10,
      remote: {
        card: 'https://b.example/a2a/researcher/.well-known/agent-card.json',
        state: 'completed',
        chain: { runId: 'a2a-1', url: 'https://b.example/v1/runs/a2a-1/chain', totalSteps: 10, steps: [] },
      },
    };
    const tree: AgentTreeNode = {
      workflowId: ROOT,
      status: status(),
      children: [{ workflowId: remote.workflowId, agentName: remote.agentName, run: remote, children: [] }],
    };
    expect(plain(renderTree(tree)).split('\n')).toEqual([
      '(agent)  agent-1  thinking · 1/10 iterations · 120 tokens · $0.0010',
      '└─ researcher_remote  agent-1/researcher_remote-2  completed · 10 steps · budget 5 iterations',
      '       remote chain: 10 steps at https://b.example/v1/runs/a2a-1/chain',
    ]);
  });
});
