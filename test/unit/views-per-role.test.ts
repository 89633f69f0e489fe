import { describe, expect, it } from 'vitest';
import type { AgentClient } from '../../src/client/agent-client';
import { auditReport } from '../../src/audit';
import { renderAuditMarkdown } from '../../src/audit';
import { renderStatus } from '../../src/cli/render/render-status';
import {
  AgentStatus,
  ReasoningChain,
  ViewerRole,
  type AgentResult,
  type ApprovalRecord,
  type ReasoningStep,
} from '../../src/domain';
import { queryRole, viewChain, viewResult, viewStatus } from '../../src/domain/chain/chain-view';
import { STEP_TIME, stepOf } from '../helpers/chain-helpers';

const KEY = 'AKIAIOSFODNN7EXAMPLE';
const CARD = '4111111111111111';
const ROLES = ViewerRole.options;
/** Roles that see a tool's sensitive fields in clear. */
const SEES_SENSITIVE: readonly ViewerRole[] = ['auditor'];

const chargeArgs = { amount: 5, card: { number: CARD }, memo: `key ${KEY}` };
const chargeCall = stepOf(2, {
  type: 'tool_call',
  toolCall: {
    toolType: 'external',
    toolName: 'charge_card',
    arguments: chargeArgs,
    correlationId: 'c1',
    sensitiveFields: ['card.number'],
  },
});

const pending = (extra: Partial<ApprovalRecord> = {}): ApprovalRecord => ({
  callId: 'c1',
  stepId: 's2',
  toolName: 'charge_card',
  arguments: chargeArgs,
  sensitiveFields: ['card.number'],
  argumentsHash: 'hash-of-raw',
  reason: 'always requires approval',
  approverRoles: [],
  runId: 'run-1',
  requestedAt: STEP_TIME,
  expiresAt: STEP_TIME,
  status: 'pending',
  ...extra,
});

const status = (records: ApprovalRecord[]): AgentStatus =>
  AgentStatus.parse({
    status: 'waiting',
    iteration: 1,
    maxIterations: 10,
    steps: 2,
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0,
    model: 'scripted',
    continuations: 0,
    waitingFor: `approval of charge_card (c1) for card ${CARD}`,
    pendingApprovals: records,
    openQuestion: { callId: 'q1', question: `Is ${KEY} yours?`, askedAt: STEP_TIME, expiresAt: STEP_TIME },
  });

function chain(): ReasoningChain {
  return ReasoningChain.parse({
    schemaVersion: 1,
    chainId: 'wf-1',
    agentName: 'payer',
    task: 'Pay the invoice',
    startedAt: STEP_TIME,
    completedAt: STEP_TIME,
    status: 'completed',
    approvals: [{ ...pending(), status: 'approved', decidedBy: { id: 'ops', roles: [] }, decidedAt: STEP_TIME }],
    steps: [
      stepOf(1, { type: 'thinking', thought: `I will charge ${CARD}` }),
      chargeCall,
      stepOf(3, {
        type: 'tool_result',
        toolResult: { correlationId: 'c1', success: true, result: { ok: true, card: { number: CARD } }, durationMs: 3 },
      }),
      stepOf(4, { type: 'synthesis', synthesis: { sources: ['s3'], conclusion: `Charged ${CARD} using ${KEY}` } }),
    ],
  });
}

const result = (): AgentResult => ({
  success: false,
  finalAnswer: `Charged card ${CARD}; the key was ${KEY}`,
  terminationReason: 'success',
  chain: chain(),
  usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
  costUsd: 0,
  iterations: 2,
  modelCalls: 2,
  toolCalls: 1,
  formatErrors: 0,
  cachedCalls: 0,
  continuations: 0,
  executionTimeMs: 10,
  error: `the gateway echoed ${KEY}`,
});

describe('viewStatus: the status query per role', () => {
  it.each(ROLES)('%s: secrets redacted everywhere; sensitive fields only as the role allows', (role) => {
    const text = JSON.stringify(viewStatus(status([pending()]), role));
    expect(text).not.toContain(KEY);
    if (SEES_SENSITIVE.includes(role)) expect(text).toContain(CARD);
    else {
      expect(text).not.toContain(CARD);
      expect(viewStatus(status([pending()]), role).pendingApprovals[0]!.arguments).toMatchObject({
        card: { number: '[SENSITIVE]' },
        amount: 5,
      });
    }
  });

  it('keeps the hash of the raw arguments, so an approver can decide on what the view showed', () => {
    for (const role of ROLES)
      expect(viewStatus(status([pending()]), role).pendingApprovals[0]!.argumentsHash).toBe('hash-of-raw');
  });

  it("a record made before records carried their fields takes them from the chain's call step", () => {
    const { sensitiveFields: _fields, ...old } = pending();
    const viewed = viewStatus(status([old]), 'developer', [chargeCall]);
    expect(JSON.stringify(viewed)).not.toContain(CARD);
  });

  it("a sub-agent's record (not in this run's chain) is redacted by its own fields", () => {
    const viewed = viewStatus(
      status([pending({ workflowId: 'child-1', agentPath: ['payer', 'child'] })]),
      'end_user',
      [],
    );
    expect(JSON.stringify(viewed)).not.toContain(CARD);
    expect(JSON.stringify(viewed)).not.toContain(KEY);
  });

  it('the CLI rendering of the developer view shows neither', () => {
    const text = renderStatus('wf-1', viewStatus(status([pending()]), 'developer'));
    expect(text).toContain('charge_card');
    expect(text).not.toContain(CARD);
    expect(text).not.toContain(KEY);
  });

  it('an end user sees no arguments of a pending call whose step is summary-level or hidden, as in the chain', () => {
    for (const level of ['summary', 'hidden'] as const) {
      const quiet = { ...chargeCall, visibility: { level } } as ReasoningStep;
      expect(viewStatus(status([pending()]), 'end_user', [quiet]).pendingApprovals[0]!.arguments).toEqual({});
      expect(viewChain({ ...chain(), steps: [quiet] }, 'end_user').approvals![0]!.arguments).toEqual({});
      expect(viewStatus(status([pending()]), 'developer', [quiet]).pendingApprovals[0]!.arguments).toMatchObject({
        card: { number: '[SENSITIVE]' },
      });
    }
  });

  it('never changes the record it was given', () => {
    const raw = status([pending()]);
    viewStatus(raw, 'end_user');
    expect(raw.pendingApprovals[0]!.arguments).toEqual(chargeArgs);
  });
});

describe('queryRole', () => {
  it('defaults to developer, reads role names and refuses anything else with an Error', () => {
    expect(queryRole(undefined)).toBe('developer');
    expect(queryRole(null)).toBe('developer');
    expect(queryRole('auditor')).toBe('auditor');
    for (const bad of ['root', 42, {}, [], Object.create(null)])
      expect(() => queryRole(bad)).toThrow(/Valid roles: end_user, developer, auditor/);
  });
});

describe('viewChain: a sensitive value repeated in free text', () => {
  it.each(ROLES)('%s', (role) => {
    const view = viewChain(chain(), role);
    const text = JSON.stringify(view);
    expect(text).not.toContain(KEY);
    expect(text.includes(CARD)).toBe(SEES_SENSITIVE.includes(role));
  });
});

describe('viewResult: the final answer and every top-level field', () => {
  it.each(ROLES)('%s', (role) => {
    const viewed = viewResult(result(), role);
    expect(viewed.finalAnswer).not.toContain(KEY);
    expect(viewed.error).not.toContain(KEY);
    expect(viewed.finalAnswer.includes(CARD)).toBe(SEES_SENSITIVE.includes(role));
    expect(JSON.stringify(viewed).includes(CARD)).toBe(SEES_SENSITIVE.includes(role));
    expect(viewed.chain.view?.role).toBe(role);
  });
});

/** An AgentClient that knows one finished run; export reads nothing else. */
function finishedRunClient(raw: AgentResult): AgentClient {
  const handle = { describe: async () => ({ status: { name: 'COMPLETED' }, runId: 'run-1' }), result: async () => raw };
  return {
    getHandle: () => handle,
    result: async () => raw,
    chain: async (_id: string, role: ViewerRole) => viewChain(raw.chain, role),
    // A short run's result holds its whole chain: nothing earlier to join.
    withEarlierSteps: async (_id: string, latest: AgentResult['chain']) => latest,
    status: async () => {
      throw new Error('a finished run needs no status');
    },
    client: { workflow: { list: async function* () {} } },
  } as unknown as AgentClient;
}

describe('export of a finished run, JSON and markdown', () => {
  it.each(ROLES)('%s: the final answer and the error are redacted like the chain', async (role) => {
    const report = await auditReport(finishedRunClient(result()), 'wf-1', role);
    for (const text of [JSON.stringify(report), renderAuditMarkdown(report)]) {
      expect(text).not.toContain(KEY);
      expect(text.includes(CARD)).toBe(SEES_SENSITIVE.includes(role));
    }
    expect(report.outcome).toMatchObject({ state: 'finished' });
  });
});
