import type { ApprovalRecord } from '../../src/domain/approval/approval';
import { ReasoningChain, type ReasoningStep, type Visibility } from '../../src/domain/chain/chain';
import type { ChainHead, RunUpdate } from '../../src/store/chain-store';

export const CARD = '4111111111111111';
const full: Visibility = { level: 'full' };

/** A raw step of run time `second` (from 2026-01-01T00:00:00Z). */
export function testStep(n: number, visibility: Visibility, body: Record<string, unknown>, second = n): ReasoningStep {
  return {
    stepId: `s${n}`,
    stepNumber: n,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
    iteration: 0,
    visibility,
    ...body,
  } as ReasoningStep;
}

const approval: ApprovalRecord = {
  callId: 'c2',
  stepId: 's7',
  toolName: 'charge',
  arguments: { card: { number: CARD } },
  argumentsHash: 'abc123',
  reason: 'always',
  approverRoles: [],
  runId: 'run-1',
  requestedAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-02T00:00:00.000Z',
  status: 'approved',
  decidedBy: { id: 'ops', roles: [] },
};

/**
 * Nine steps: a thought quoting a card before the call that marks it sensitive, a hidden thought
 * and a hidden tool call (tool `vault`), a model call with tokens and cost, a summary-level call
 * that failed, the sensitive `charge` call with its approval, and the answer.
 */
export function sampleChain(
  runId: string,
  options: { tenant?: string; startedAt?: string; agentName?: string } = {},
): ReasoningChain {
  return ReasoningChain.parse({
    schemaVersion: 1,
    chainId: runId,
    agentName: options.agentName ?? 'helper',
    task: `Charge card ${CARD}`,
    startedAt: options.startedAt ?? '2026-01-01T00:00:00.000Z',
    status: 'completed',
    approvals: [approval],
    caller: { id: 'u-1', roles: [], ...(options.tenant === undefined ? {} : { tenant: options.tenant }) },
    steps: [
      testStep(1, full, { type: 'thinking', thought: `I will charge ${CARD}` }),
      testStep(
        2,
        { level: 'hidden' },
        {
          type: 'tool_call',
          toolCall: {
            toolType: 'external',
            toolName: 'vault',
            arguments: { secretWord: 'Zanzibar' },
            correlationId: 'v1',
          },
        },
      ),
      testStep(3, full, {
        type: 'tool_call',
        model: 'claude-x',
        usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: 0.25,
        toolCall: { toolType: 'llm', toolName: 'claude-x', arguments: { prompt: 'p' }, correlationId: 'm1' },
      }),
      testStep(4, full, {
        type: 'tool_result',
        usage: { inputTokens: 5, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: 0.5,
        toolResult: { correlationId: 'm1', success: true, result: { text: 'OK 100%_done' }, durationMs: 3 },
      }),
      testStep(
        5,
        { level: 'summary', summary: 'Looked it up' },
        {
          type: 'tool_call',
          toolCall: { toolType: 'external', toolName: 'lookup', arguments: { q: 'where' }, correlationId: 'c1' },
        },
      ),
      testStep(6, full, {
        type: 'tool_result',
        toolResult: { correlationId: 'c1', success: false, result: null, error: 'No such Thing', durationMs: 1 },
      }),
      testStep(7, full, {
        type: 'tool_call',
        toolCall: {
          toolType: 'external',
          toolName: 'charge',
          arguments: { card: { number: CARD }, amount: 5 },
          correlationId: 'c2',
          sensitiveFields: ['card.number'],
        },
      }),
      testStep(8, full, {
        type: 'tool_result',
        toolResult: { correlationId: 'c2', success: true, result: { receipt: 'r-1' }, durationMs: 9 },
      }),
      testStep(9, full, { type: 'synthesis', synthesis: { sources: ['s8'], conclusion: `Charged the card` } }),
    ],
  });
}

/** The run write for a chain (its head), as the projection makes it. */
export function runUpdateOf(chain: ReasoningChain, extra: Partial<RunUpdate> = {}): RunUpdate {
  const { steps: _steps, ...head } = chain;
  return { runId: chain.chainId, head: head as ChainHead, state: 'completed', ...extra };
}

/**
 * A run imported as stores before version 5 kept one: under the id its report named (here a
 * trigger run's, as a squatter would), for the migration tests of both databases.
 */
export function legacyImportOf(runId: string): { update: RunUpdate; steps: ReasoningChain['steps'] } {
  const chain = sampleChain(runId);
  const imported = {
    importedAt: '2026-11-01T00:00:00.000Z',
    importedBy: 'mallory',
    from: 'api',
    exportedAt: '2026-11-01T00:00:00.000Z',
    finalHash: 'sha256:00',
    anchor: 'final_hash' as const,
  };
  return { update: { ...runUpdateOf(chain), imported }, steps: chain.steps };
}
