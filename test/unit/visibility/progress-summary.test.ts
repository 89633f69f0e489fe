import { describe, expect, it } from 'vitest';
import type { ApprovalRecord } from '../../../src/domain/approval/approval';
import type { ReasoningChain, ReasoningStep, ToolType } from '../../../src/domain/chain/chain';
import { viewChain } from '../../../src/domain/chain/chain-view';
import { progressSummary } from '../../../src/domain/visibility/progress-summary';

let n = 0;
const base = (level: 'full' | 'summary' | 'hidden' = 'full') => {
  n += 1;
  return {
    stepId: `s${n}`,
    stepNumber: n,
    timestamp: '2026-01-01T00:00:00.000Z',
    iteration: 0,
    visibility: { level },
  };
};
const call = (id: string, toolType: ToolType, toolName: string, args: Record<string, unknown> = {}): ReasoningStep => ({
  ...base(),
  type: 'tool_call',
  toolCall: { toolType, toolName, arguments: args, correlationId: id },
});
const result = (id: string, value: unknown, success = true): ReasoningStep => ({
  ...base(),
  type: 'tool_result',
  toolResult: { correlationId: id, success, result: value, durationMs: 1 },
});
const chainOf = (steps: ReasoningStep[], extra: Partial<ReasoningChain> = {}): ReasoningChain => ({
  schemaVersion: 1,
  chainId: 'wf-1',
  agentName: 'analyst',
  task: 'Analyse the data',
  startedAt: '2026-01-01T00:00:00.000Z',
  status: 'tool_calling',
  steps,
  ...extra,
});
const approval = (callId: string): ApprovalRecord => ({
  callId,
  stepId: 's1',
  toolName: 'charge',
  arguments: {},
  argumentsHash: 'h',
  reason: 'always',
  approverRoles: [],
  runId: 'r',
  requestedAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-02T00:00:00.000Z',
  status: 'approved',
});

describe('progressSummary (seed 002, journey 5)', () => {
  it('reads like the seed: three sources checked, 247 records processed', () => {
    const chain = chainOf([
      call('a', 'database', 'sql_query', { query: 'select *' }),
      result('a', { rowCount: 200, rows: [] }),
      call('b', 'external', 'http_get', { url: 'https://crm.example/customers?page=1' }),
      result('b', new Array(40).fill({})),
      call('c', 'file_system', 'read_file', { path: '/data/extra.csv' }),
      result('c', { records: [1, 2, 3, 4, 5, 6, 7] }),
    ]);
    const summary = progressSummary(chain);
    expect(summary.lines).toEqual(['Checked 3 sources', 'Processed 247 records']);
    expect(summary.text).toBe('Checked 3 sources · processed 247 records');
  });

  it('counts a source once however often it is called, and URLs by host', () => {
    const chain = chainOf([
      call('a', 'external', 'http_get', { url: 'https://crm.example/a' }),
      call('b', 'external', 'http_get', { url: 'HTTPS://CRM.example/b#x' }),
      call('c', 'database', 'sql_query', { query: 'select 1' }),
      call('d', 'database', 'sql_query', { query: 'select 2' }),
    ]);
    expect(progressSummary(chain).lines).toEqual(['Checked 2 sources']);
  });

  it('says "1 source" and "1 record" in the singular', () => {
    const chain = chainOf([call('a', 'database', 'db'), result('a', { count: 1 })]);
    expect(progressSummary(chain).text).toBe('Checked 1 source · processed 1 record');
  });

  it('reads each record field, and counts nothing it cannot read', () => {
    const counts = (value: unknown) =>
      progressSummary(chainOf([call('a', 'skill', 'parse'), result('a', value)])).lines;
    expect(counts({ row_count: 12 })).toEqual(['Processed 12 records']);
    expect(counts({ rows: [1, 2] })).toEqual(['Processed 2 records']);
    expect(counts({ records: 9 })).toEqual(['Processed 9 records']);
    expect(counts({ rows: 5 })).toEqual([]); // rows is a list of rows, never a count
    expect(counts('[1,2,3]')).toEqual([]); // a JSON string is not parsed
    expect(counts({ count: -1 })).toEqual([]);
    expect(counts({ count: 1.5 })).toEqual([]);
    expect(counts({ id: 7 })).toEqual([]);
    expect(counts(null)).toEqual([]);
  });

  it('leaves out failed results, model replies and sub-agent answers from records', () => {
    const chain = chainOf([
      call('a', 'database', 'db'),
      result('a', [1, 2, 3], false),
      call('m', 'llm', 'claude'),
      result('m', [1, 2]),
      call('s', 'sub_agent', 'researcher'),
      result('s', [1]),
    ]);
    expect(progressSummary(chain).lines).toEqual(['Checked 1 source', 'Asked 1 other agent']);
  });

  it('counts people asked: approvals and questions, one line', () => {
    const chain = chainOf(
      [
        call('q', 'custom', 'ask_person', { question: 'Which region?' }),
        { ...result('q', 'EU'), fromPerson: { kind: 'answer', by: 'ann' } },
        call('q2', 'custom', 'consult_human'),
        { ...result('q2', 'yes'), fromPerson: { kind: 'answer', by: 'bob' } },
      ],
      { approvals: [approval('x'), approval('y'), approval('x')] },
    );
    expect(progressSummary(chain).lines).toEqual(['Asked a person for 2 approvals and 2 questions']);
  });

  it('ends with the outcome once the run ended, and none while it runs', () => {
    const synth = (reason?: 'success' | 'cost_budget'): ReasoningStep => ({
      ...base(),
      type: 'synthesis',
      synthesis: { sources: [], conclusion: 'ok', ...(reason ? { terminationReason: reason } : {}) },
    });
    const steps = [call('a', 'external', 'weather'), result('a', [1, 2])];
    expect(progressSummary(chainOf(steps)).text).toBe('Checked 1 source · processed 2 records');
    expect(progressSummary(chainOf([...steps, synth('success')], { status: 'completed' })).text).toBe(
      'Checked 1 source · processed 2 records · done',
    );
    expect(progressSummary(chainOf([synth('cost_budget')], { status: 'completed' })).lines).toEqual([
      'Stopped at its cost budget',
    ]);
    expect(progressSummary(chainOf([], { status: 'failed' })).lines).toEqual(['Failed']);
    expect(progressSummary(chainOf([synth()], { status: 'completed' })).lines).toEqual(['Done']);
  });

  it('is empty for a run that has done nothing a person would count', () => {
    expect(progressSummary(chainOf([{ ...base(), type: 'thinking', thought: 'hmm' }]))).toEqual({
      lines: [],
      text: '',
    });
  });

  it('stays bounded: huge counts use separators, long targets are cut, at most five lines', () => {
    const steps: ReasoningStep[] = [];
    for (let i = 0; i < 50; i++) steps.push(call(`c${i}`, 'external', 'http_get', { url: `https://h${i}.example/` }));
    steps.push(call('big', 'file_system', 'read', { path: 'x'.repeat(100_000) }));
    steps.push(result('big', { rowCount: 1_234_567 }));
    steps.push(result('c0', { rowCount: Number.MAX_SAFE_INTEGER }));
    steps.push(call('s', 'sub_agent', 'helper'), call('q', 'custom', 'ask_person'));
    steps.push({
      ...base(),
      type: 'synthesis',
      synthesis: { sources: [], conclusion: 'x', terminationReason: 'success' },
    });
    const summary = progressSummary(chainOf(steps, { status: 'completed', approvals: [approval('z')] }));
    expect(summary.lines).toEqual([
      'Checked 51 sources',
      'Processed 9,007,199,254,740,991 records',
      'Asked 1 other agent',
      'Asked a person for 1 approval and 1 question',
      'Done',
    ]);
    expect(summary.lines.every((line) => line.length <= 60)).toBe(true);
  });

  it('counts only what the view shows: hidden steps drop out, summary-level calls count by tool', () => {
    const chain = chainOf([
      { ...call('a', 'database', 'warehouse'), visibility: { level: 'hidden' } },
      { ...result('a', [1, 2, 3]), visibility: { level: 'hidden' } },
      {
        ...call('b', 'external', 'http_get', { url: 'https://one.example' }),
        visibility: { level: 'summary', summary: 'Looked something up' },
      },
      { ...result('b', [1, 2]), visibility: { level: 'summary', summary: 'Found two' } },
      { ...call('c', 'external', 'http_get', { url: 'https://two.example' }), visibility: { level: 'summary' } },
    ]);
    expect(progressSummary(chain).text).toBe('Checked 3 sources · processed 5 records');
    // The end user's view drops hidden steps and the summary-level calls' arguments and results.
    expect(progressSummary(viewChain(chain, 'end_user')).text).toBe('Checked 1 source');
  });
});
