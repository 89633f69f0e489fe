import { buildAuditReport, type AuditReport } from '../../src/audit/audit-report';
import type { ReasoningChain } from '../../src/domain';
import { testChainBuilder } from './test-chain-builder';

const full = { level: 'full' as const };
const usage = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 };

/**
 * A finished run's chain: a model call that asks for `read_notes`, the read, a model call that
 * asks for `write_file`, the write, then the finish: steps 1–12 (the read at 3, the write at 7, the finish at 11).
 */
export function sampleChain(chainId = 'wf-1'): ReasoningChain {
  const chain = testChainBuilder();
  const modelCall = (n: number, tool: string) => {
    chain.iteration = n;
    chain.toolCall(
      { toolType: 'llm', toolName: 'm', arguments: { messages: 2 * n - 1 }, correlationId: `m${n}` },
      full,
      { model: 'm' },
    );
    chain.toolResult(
      {
        correlationId: `m${n}`,
        success: true,
        result: { text: '', toolCalls: [{ id: `t${n}`, name: tool }] },
        durationMs: 5,
      },
      full,
      { model: 'm', usage, costUsd: 0.001 },
    );
  };
  modelCall(1, 'read_notes');
  chain.toolCall(
    { toolType: 'external', toolName: 'read_notes', arguments: { topic: 'revenue' }, correlationId: 't1' },
    full,
  );
  chain.toolResult({ correlationId: 't1', success: true, result: 'notes: 42', durationMs: 3 }, full);
  modelCall(2, 'write_file');
  chain.toolCall(
    { toolType: 'external', toolName: 'write_file', arguments: { path: 'report.txt' }, correlationId: 't2' },
    full,
  );
  chain.toolResult({ correlationId: 't2', success: true, result: 'wrote', durationMs: 3 }, full);
  modelCall(3, 'finish');
  chain.toolCall({ toolType: 'custom', toolName: 'finish', arguments: { result: 'done' }, correlationId: 't3' }, full);
  chain.toolResult({ correlationId: 't3', success: true, result: 'done', durationMs: 0 }, full);
  return { ...chain.snapshot(), chainId, status: 'completed', completedAt: '2026-01-01T00:01:00.000Z' };
}

/** The unsealed auditor's report of `sampleChain()`, as `export` builds it. */
export function sampleReport(workflowId = 'wf-1'): AuditReport {
  return buildAuditReport({
    workflowId,
    runIds: ['run-1'],
    startedBy: { caller: { id: 'alice', roles: ['analyst'] } },
    chain: sampleChain(workflowId),
    exportedAt: '2026-01-02T00:00:00.000Z',
  });
}
