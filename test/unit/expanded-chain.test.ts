import { WorkflowNotFoundError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { childRunIds, loadExpandedChain } from '../../src/client/chain/expanded-chain';
import { renderExpandedChain } from '../../src/cli/render/render-expanded-chain';
import { ReasoningChain, type ReasoningStep, type SubAgentRun } from '../../src/domain';

const plain = (s: string): string => s.replace(/\u001b\[\d+m/g, '');
const full = { level: 'full' } as const;
const steps = (drafts: Array<Record<string, unknown>>): ReasoningStep[] =>
  drafts.map(
    (d, i) =>
      ({
        stepId: `s${i + 1}`,
        stepNumber: i + 1,
        timestamp: '2026-01-01T00:00:00.000Z',
        iteration: 1,
        visibility: full,
        ...d,
      }) as ReasoningStep,
  );
const chain = (
  chainId: string,
  agentName: string,
  task: string,
  drafts: Array<Record<string, unknown>>,
  status: ReasoningChain['status'] = 'completed',
): ReasoningChain =>
  ReasoningChain.parse({
    schemaVersion: 1,
    chainId,
    agentName,
    task,
    startedAt: '2026-01-01T00:00:00.000Z',
    status,
    steps: steps(drafts),
  });

const run = (agentName: string, workflowId: string, fields: Partial<SubAgentRun> = {}): SubAgentRun => ({
  callId: `toolu_${agentName}`,
  agentName,
  workflowId,
  status: 'completed',
  budget: { maxIterations: 3 },
  terminationReason: 'success',
  steps: 2,
  ...fields,
});
const delegate = (agentName: string, workflowId: string) => ({
  type: 'tool_call',
  toolCall: {
    toolType: 'sub_agent',
    toolName: agentName,
    arguments: { task: `ask ${agentName}` },
    correlationId: `toolu_${agentName}`,
    delegatedTo: { agentName, workflowId },
  },
});
const answered = (r: SubAgentRun, result: string) => ({
  type: 'tool_result',
  toolResult: {
    correlationId: r.callId,
    success: r.status === 'completed',
    result,
    ...(r.status === 'completed' ? {} : { error: result }),
    durationMs: 1,
    subAgent: r,
  },
});

const RES = 'agent-1/researcher-1';
const FACT = 'agent-1/researcher-1/fact_checker-1';
const WRITER = 'agent-1/writer-3';
const GONE = 'agent-1/summariser-5';
const CODER = 'agent-1/coder-7';

const chains: Record<string, ReasoningChain> = {
  'agent-1': chain('agent-1', 'orchestrator', 'Write a report', [
    delegate('researcher', RES),
    answered(run('researcher', RES), 'found it'),
    delegate('writer', WRITER),
    delegate('summariser', GONE),
    answered(run('summariser', GONE), 'summary'),
    answered(run('coder', CODER, { status: 'refused', terminationReason: undefined, steps: undefined }), 'refused'),
  ]),
  [RES]: chain(RES, 'researcher', 'ask researcher', [
    delegate('fact_checker', FACT),
    answered(run('fact_checker', FACT), 'checked'),
    { type: 'synthesis', synthesis: { sources: [], conclusion: 'found it' } },
  ]),
  [FACT]: chain(FACT, 'fact_checker', 'ask fact_checker', [{ type: 'thinking', thought: 'Checking' }]),
  [WRITER]: chain(WRITER, 'writer', 'ask writer', [{ type: 'thinking', thought: 'Drafting' }], 'thinking'),
};

const readChain = async (id: string): Promise<ReasoningChain> => {
  const c = chains[id];
  if (!c) throw new WorkflowNotFoundError('not found', id, undefined);
  return c;
};

describe('loadExpandedChain', () => {
  it('lists the children a chain points to, leaving out refused delegations', () => {
    expect(childRunIds(chains['agent-1']!)).toEqual([RES, WRITER, GONE]);
  });

  it('reads every child chain recursively and keeps an unreadable one as its error', async () => {
    const expanded = await loadExpandedChain('agent-1', readChain);
    expect(Object.keys(expanded.subAgents)).toEqual([RES, WRITER, GONE]);
    expect(expanded.subAgents[GONE]).toEqual({ error: 'not found' });
    const res = expanded.subAgents[RES];
    expect(res && 'chain' in res && Object.keys(res.subAgents)).toEqual([FACT]);
    await expect(loadExpandedChain('agent-9', readChain)).rejects.toBeInstanceOf(WorkflowNotFoundError);
  });
});

describe('renderExpandedChain', () => {
  it("nests each child's steps under its result (or its call while it runs), recursively", async () => {
    const text = plain(renderExpandedChain(await loadExpandedChain('agent-1', readChain)));
    expect(text.split('\n')).toEqual([
      '  1 Action       researcher {"task":"ask researcher"}',
      `                 → delegated to researcher (run ${RES})`,
      '  2 Observation  found it',
      `                 ↳ researcher success: 2 steps — npx thoughtline chain ${RES}`,
      `      │ researcher · ${RES} · completed: ask researcher`,
      '      │   1 Action       fact_checker {"task":"ask fact_checker"}',
      `      │                  → delegated to fact_checker (run ${FACT})`,
      '      │   2 Observation  checked',
      `      │                  ↳ fact_checker success: 2 steps — npx thoughtline chain ${FACT}`,
      `      │       │ fact_checker · ${FACT} · completed: ask fact_checker`,
      '      │       │   1 Thought      Checking',
      '      │   3 Final answer found it',
      '  3 Action       writer {"task":"ask writer"}',
      `                 → delegated to writer (run ${WRITER})`,
      `      │ writer · ${WRITER} · thinking: ask writer`,
      '      │   1 Thought      Drafting',
      '  4 Action       summariser {"task":"ask summariser"}',
      `                 → delegated to summariser (run ${GONE})`,
      '  5 Observation  summary',
      `                 ↳ summariser success: 2 steps — npx thoughtline chain ${GONE}`,
      `      │ ${GONE}: chain not readable (not found)`,
      '  6 Observation  refused',
      '                 ↳ coder refused',
    ]);
  });

  it("shows a child whose steps the view leaves out after the run's own steps", () => {
    const parent = { ...chains['agent-1']!, steps: [] as ReasoningStep[] };
    expect(
      plain(
        renderExpandedChain({ chain: parent, subAgents: { [WRITER]: { chain: chains[WRITER]!, subAgents: {} } } }),
      ).split('\n'),
    ).toEqual([`      │ writer · ${WRITER} · thinking: ask writer`, '      │   1 Thought      Drafting']);
  });
});
