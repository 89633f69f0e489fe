import { describe, expect, it } from 'vitest';
import { AuditReport, buildAuditReport } from '../../src/audit/audit-report';
import { renderAuditMarkdown } from '../../src/audit';
import {
  AgentStatus,
  ReasoningChain,
  type AgentResult,
  type ApprovalRecord,
  type ReasoningStep,
} from '../../src/domain';

const at = (seconds: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)).toISOString();
const full = { level: 'full' } as const;
type Draft = ReasoningStep extends infer S
  ? S extends ReasoningStep
    ? Omit<S, 'stepId' | 'stepNumber' | 'timestamp' | 'iteration' | 'visibility'>
    : never
  : never;

/** Numbers, stamps (one second apart) and ids the steps the way the chain builder would. */
function steps(drafts: Draft[]): ReasoningStep[] {
  return drafts.map(
    (d, i) =>
      ({
        ...d,
        stepId: `s${i + 1}`,
        stepNumber: i + 1,
        timestamp: at(i + 1),
        iteration: 1,
        visibility: full,
      }) as ReasoningStep,
  );
}
const call = (toolName: string, args: Record<string, unknown>, correlationId: string): Draft => ({
  type: 'tool_call',
  toolCall: { toolType: 'external', toolName, arguments: args, correlationId },
});
const ok = (correlationId: string, result: unknown): Draft => ({
  type: 'tool_result',
  toolResult: { correlationId, success: true, result, durationMs: 5 },
});
const modelCall = (model: string, correlationId: string): Draft => ({
  type: 'tool_call',
  model,
  toolCall: { toolType: 'llm', toolName: model, arguments: { provider: 'anthropic' }, correlationId },
});
const modelReply = (
  model: string,
  correlationId: string,
  inputTokens: number,
  outputTokens: number,
  costUsd: number,
  cacheReadTokens = 0,
): Draft => ({
  type: 'tool_result',
  model,
  usage: { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens: 0 },
  costUsd,
  toolResult: { correlationId, success: true, result: { stopReason: 'tool_use' }, durationMs: 800 },
});

const SONNET = 'claude-sonnet-4-5';
const HAIKU = 'claude-haiku-4-5';
const ANSWER_FROM_TOOL = 'salary | bonus\nannual_income=$42,000';

const loanSteps = steps([
  { type: 'thinking', thought: "I need the applicant's credit score" },
  modelCall(SONNET, 'm1'),
  modelReply(SONNET, 'm1', 1000, 200, 0.006),
  call('credit_check', { applicant_id: 78291 }, 't1'),
  ok('t1', { score: 580 }),
  { type: 'thinking', thought: 'Also check income', fromPerson: { kind: 'steer', by: 'alice' } },
  modelCall(HAIKU, 'm2'),
  modelReply(HAIKU, 'm2', 500, 50, 0.0011, 100),
  call('income_verification', { applicant_id: 78291 }, 't2'),
  {
    type: 'tool_result',
    toolResult: {
      correlationId: 't2',
      success: false,
      result: null,
      error: 'Service unavailable <503>',
      durationMs: 9,
    },
  },
  call('ask_human', { question: 'What is the income?' }, 't3'),
  { ...ok('t3', ANSWER_FROM_TOOL), fromPerson: { kind: 'answer', by: 'bob' } },
  modelCall(SONNET, 'm3'),
  modelReply(SONNET, 'm3', 1500, 300, 0.009),
  call('approve_loan', { amount: 5000 }, 't4'),
  ok('t4', { ok: true }),
  call('transfer_funds', { amount: 90000 }, 't5'),
  {
    type: 'tool_result',
    toolResult: { correlationId: 't5', success: false, result: null, error: 'Rejected by carol', durationMs: 0 },
  },
  { type: 'synthesis', synthesis: { sources: ['s5', 's12', 's16'], conclusion: 'DENY: score 580 is below 620' } },
]);

const approval = (
  callId: string,
  stepId: string,
  toolName: string,
  args: Record<string, unknown>,
  requested: number,
): ApprovalRecord => ({
  callId,
  stepId,
  toolName,
  arguments: args,
  argumentsHash: `hash-${callId}`,
  reason: 'amount above 1000',
  approverRoles: ['loan_officer'],
  runId: 'run-2',
  requestedAt: at(requested),
  expiresAt: at(requested + 3600),
  status: 'pending',
});

const loanChain: ReasoningChain = {
  schemaVersion: 1,
  chainId: 'loan-78291',
  agentName: 'loan-reviewer',
  task: 'Loan application review #78291',
  startedAt: at(0),
  completedAt: at(125),
  status: 'completed',
  steps: loanSteps,
  approvals: [
    {
      ...approval('t4', 's15', 'approve_loan', { amount: 5000 }, 15),
      status: 'approved',
      decidedAt: at(135),
      decidedBy: { id: 'dave', roles: ['loan_officer'] },
      note: 'within policy',
    },
    {
      ...approval('t5', 's17', 'transfer_funds', { amount: 90000 }, 17),
      status: 'rejected',
      decidedAt: at(47),
      decidedBy: { id: 'carol', roles: ['risk', 'manager'] },
      note: 'amount too high',
    },
  ],
  view: { role: 'auditor', hiddenSteps: 2 },
};

const usage = { inputTokens: 3000, outputTokens: 550, cacheReadTokens: 100, cacheWriteTokens: 0 };
const loanResult: AgentResult = {
  success: true,
  finalAnswer: 'Recommendation: DENY\n# not a heading\n- credit score 580',
  terminationReason: 'success',
  /** Unfiltered: the report must never take steps from here. */
  chain: { ...loanChain, steps: [...loanSteps, ...steps([{ type: 'thinking', thought: 'SECRET' }])], view: undefined },
  usage,
  costUsd: 0.0161,
  iterations: 3,
  modelCalls: 3,
  toolCalls: 5,
  formatErrors: 0,
  cachedCalls: 0,
  continuations: 1,
  executionTimeMs: 125_000,
};

const exported = {
  workflowId: 'loan-78291',
  runIds: ['run-1', 'run-2'],
  exportedAt: at(3600),
  exportedBy: { id: 'olga', roles: ['auditor'] },
};
const finished = () => buildAuditReport({ ...exported, chain: loanChain, result: loanResult });
/** Splits a table row on pipes that are not backslash-escaped. */
const cells = (row: string): string[] =>
  row
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((c) => c.trim());

describe('buildAuditReport', () => {
  it('reports identity, outcome and the view, and parses with its schema', () => {
    const report = finished();
    expect(AuditReport.parse(JSON.parse(JSON.stringify(report)))).toEqual(report);
    expect(report).toMatchObject({
      schemaVersion: 1,
      generatedBy: 'thoughtline',
      exportedAt: at(3600),
      exportedBy: { id: 'olga', roles: ['auditor'] },
      run: {
        workflowId: 'loan-78291',
        runIds: ['run-1', 'run-2'],
        agentName: 'loan-reviewer',
        task: 'Loan application review #78291',
        startedAt: at(0),
        completedAt: at(125),
        status: 'completed',
        iterations: 3,
        durationMs: 125_000,
      },
      outcome: { state: 'finished', terminationReason: 'success', success: true, finalAnswer: loanResult.finalAnswer },
      view: { role: 'auditor', hiddenSteps: 2 },
    });
    expect(report.steps.map((s) => s.stepId)).toEqual(loanSteps.map((s) => s.stepId));
    expect(JSON.stringify(report)).not.toContain('SECRET');
  });

  it("counts an ask_model consensus as its models' calls, not as a call of a model named ask_model", () => {
    const consensus = steps([
      { type: 'tool_call', toolCall: { toolType: 'llm', toolName: 'ask_model', arguments: {}, correlationId: 'c1' } },
      modelCall(SONNET, 'c1/a'),
      modelReply(SONNET, 'c1/a', 100, 10, 0.001),
      modelCall(HAIKU, 'c1/b'),
      modelReply(HAIKU, 'c1/b', 100, 10, 0.0002),
      ok('c1', { agreement: 1 }),
    ]);
    const { costs } = buildAuditReport({ ...exported, chain: { ...loanChain, steps: consensus }, result: undefined });
    expect(costs.byModel.map((m) => [m.model, m.calls])).toEqual([
      [SONNET, 1],
      [HAIKU, 1],
    ]);
  });

  it('takes totals from the result and sums the per-model breakdown from the model steps', () => {
    const { costs } = finished();
    expect(costs).toMatchObject({
      totalsFrom: 'result',
      usage,
      totalTokens: 3650,
      costUsd: 0.0161,
      modelCalls: 3,
      toolCalls: 5,
    });
    expect(costs.byModel).toEqual([
      {
        model: SONNET,
        calls: 2,
        failedCalls: 0,
        usage: { inputTokens: 2500, outputTokens: 500, cacheReadTokens: 0, cacheWriteTokens: 0 },
        totalTokens: 3000,
        costUsd: 0.015,
      },
      {
        model: HAIKU,
        calls: 1,
        failedCalls: 0,
        usage: { inputTokens: 500, outputTokens: 50, cacheReadTokens: 100, cacheWriteTokens: 0 },
        totalTokens: 650,
        costUsd: 0.0011,
      },
    ]);
  });

  it('lists every approval with its decision, decider and wait', () => {
    const [approved, rejected] = finished().approvals;
    expect(approved).toMatchObject({
      toolName: 'approve_loan',
      arguments: { amount: 5000 },
      requiredBecause: 'amount above 1000',
      decision: 'approved',
      decidedBy: { id: 'dave', roles: ['loan_officer'] },
      decidedAt: at(135),
      note: 'within policy',
      waitedMs: 120_000,
    });
    expect(rejected).toMatchObject({
      toolName: 'transfer_funds',
      decision: 'rejected',
      decidedBy: { id: 'carol', roles: ['risk', 'manager'] },
      note: 'amount too high',
      waitedMs: 30_000,
      runId: 'run-2',
    });
  });

  it('lists steering and answers from people as interventions', () => {
    expect(finished().interventions).toEqual([
      { stepId: 's6', stepNumber: 6, timestamp: at(6), kind: 'steer', by: 'alice', text: 'Also check income' },
      { stepId: 's12', stepNumber: 12, timestamp: at(12), kind: 'answer', by: 'bob', text: ANSWER_FROM_TOOL },
    ]);
  });

  it('reports a running run from its live status, counting a pending approval to the export', () => {
    const pending = approval('t5', 's17', 'transfer_funds', { amount: 90000 }, 17);
    const chain: ReasoningChain = {
      ...loanChain,
      completedAt: undefined,
      status: 'waiting',
      steps: loanSteps.slice(0, 17),
      approvals: [pending],
      view: undefined,
    };
    const status = AgentStatus.parse({
      status: 'waiting',
      iteration: 2,
      maxIterations: 10,
      steps: 17,
      usage,
      costUsd: 0.0161,
      model: SONNET,
      waitingFor: 'approval of transfer_funds',
    });
    const report = buildAuditReport({ workflowId: 'loan-78291', runIds: ['run-1'], chain, status, exportedAt: at(77) });
    expect(report.outcome).toMatchObject({ state: 'running', chainStatus: 'waiting', live: status });
    expect(report.run).toMatchObject({ iterations: 2, durationMs: 77_000 });
    expect(report.costs).toMatchObject({ totalsFrom: 'live_status', costUsd: 0.0161, modelCalls: 3, toolCalls: 5 });
    expect(report.approvals[0]).toMatchObject({ decision: 'pending', waitedMs: 60_000 });
    expect(report.view).toEqual({ hiddenSteps: 0 });
  });
});

describe('renderAuditMarkdown', () => {
  const md = renderAuditMarkdown(finished());
  const lines = md.split('\n');

  it('has a title, a summary table and a per-model table', () => {
    expect(lines[0]).toBe('# Audit report: Loan application review #78291');
    for (const row of [
      '| Outcome | Succeeded |',
      '| Termination reason | success |',
      '| Iterations | 3 |',
      '| Duration | 2 min 5 s |',
      '| Cost (USD) | $0.0161 |',
      '| Model calls | 3 |',
      '| Tool calls | 5 |',
    ]) {
      expect(lines).toContain(row);
    }
    expect(lines).toContain('| Tokens | 3,650 (3,000 in, 550 out, 100 cache read, 0 cache write) |');
    expect(lines).toContain(`| ${SONNET} | 2 | 0 | 2,500 | 500 | 0 | 0 | $0.0150 |`);
  });

  it('shows the decisions by people in tables', () => {
    expect(md).toContain('## Decisions by people');
    const approvals = lines.filter((l) => l.startsWith('| approve\\_loan') || l.startsWith('| transfer\\_funds'));
    expect(approvals.map(cells)).toEqual([
      [
        'approve\\_loan',
        'amount=5000',
        'amount above 1000',
        'Approved',
        'dave',
        'loan\\_officer',
        at(135),
        '2 min 0 s',
        'within policy',
      ],
      [
        'transfer\\_funds',
        'amount=90000',
        'amount above 1000',
        'Rejected',
        'carol',
        'risk, manager',
        at(47),
        '30.0 s',
        'amount too high',
      ],
    ]);
    expect(lines).toContain(`| 6 | Steering | alice | ${at(6)} | Also check income |`);
  });

  it('escapes a pipe and a newline from a tool result inside a table cell', () => {
    const row = lines.find((l) => l.startsWith('| 12 |'));
    expect(row).toBe(`| 12 | Answer | bob | ${at(12)} | salary \\| bonus<br>annual\\_income=\\$42,000 |`);
    expect(cells(row!)).toHaveLength(5);
  });

  it('renders the reasoning chain as an audit log, one line per entry', () => {
    expect(md).toContain('## Reasoning chain');
    expect(lines).toContain('1. Step 1: [THINKING] "I need the applicant\'s credit score"');
    expect(lines).toContain(`2. Steps 2–3: [MODEL] ${SONNET} · 1,000→200 tokens · $0.0060`);
    expect(lines).toContain('3. Steps 4–5: [TOOL: credit\\_check] applicant\\_id=78291 → score=580');
    expect(lines).toContain('4. Step 6: [STEERING by alice] "Also check income"');
    expect(lines).toContain(
      '6. Steps 9–10: [TOOL: income\\_verification] applicant\\_id=78291 → ERROR: Service unavailable \\<503\\>',
    );
    expect(lines).toContain(
      '7. Steps 11–12: [TOOL: ask\\_human] question=What is the income? → salary \\| bonus annual\\_income=\\$42,000 (answer by bob)',
    );
    expect(lines).toContain('11. Step 19: [FINAL ANSWER] "DENY: score 580 is below 620" (drawing on steps 5, 12, 16)');
    expect(lines).toContain(
      '10. Steps 17–18: [TOOL: transfer\\_funds] amount=90000 (rejected by carol) → ERROR: Rejected by carol',
    );
    expect(md).toContain('_2 steps are hidden in this view._');
  });

  it('clips long values in the chain and keeps them whole in the JSON', () => {
    const long = 'x'.repeat(1000);
    const chain: ReasoningChain = {
      ...loanChain,
      steps: steps([call('fetch', { url: 'u' }, 'c'), ok('c', long)]),
      approvals: [],
    };
    const report = buildAuditReport({ ...exported, chain });
    expect(report.steps[1]).toMatchObject({ toolResult: { result: long } });
    const line = renderAuditMarkdown(report)
      .split('\n')
      .find((l) => l.startsWith('1. Steps 1–2: [TOOL: fetch] url=u → x'));
    expect(line).toMatch(/x…$/);
    expect(line!.length).toBeLessThan(400);
  });

  it('quotes the final answer so its lines cannot open markdown blocks, and ends with the footer', () => {
    const answer = md.slice(md.indexOf('## Final answer'));
    expect(answer).toContain('> Recommendation: DENY\n> \\# not a heading\n> \\- credit score 580');
    expect(lines).toContain('- View: auditor view; 2 steps hidden');
    expect(lines).toContain(`- Exported: ${at(3600)} by olga (auditor)`);
    expect(lines).toContain('- Temporal runs, oldest first: run-1, run-2');
    expect(md).not.toMatch(/\p{Extended_Pictographic}/u);
  });

  it('reports a running run without approvals', () => {
    const chain: ReasoningChain = {
      ...loanChain,
      completedAt: undefined,
      status: 'thinking',
      steps: loanSteps.slice(0, 5),
      approvals: undefined,
      view: undefined,
    };
    const report = buildAuditReport({ workflowId: 'loan-78291', runIds: ['run-1'], chain, exportedAt: at(65) });
    expect(report.costs).toMatchObject({
      totalsFrom: 'chain',
      usage: { inputTokens: 1000, outputTokens: 200 },
      costUsd: 0.006,
      modelCalls: 1,
      toolCalls: 1,
    });
    const out = renderAuditMarkdown(report);
    expect(out).toContain('| Outcome | Running (thinking) |');
    expect(out).toContain('| Completed | not yet |');
    expect(out).toContain('No approvals were needed.');
    expect(out).toContain('No steering, answers or cancels from people.');
    expect(out).toContain('_The run has not finished; there is no final answer yet._');
    expect(out).toContain('- View: unfiltered chain (no role view); 0 steps hidden');
  });
});
