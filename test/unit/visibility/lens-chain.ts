import type { ApprovalRecord } from '../../../src/domain/approval/approval';
import { ReasoningChain, type ReasoningStep, type Visibility } from '../../../src/domain/chain/chain';

export const ACCOUNT = 'ACCT-99887766';
export const CARD = '4111111111111111';

/** A raw step numbered `n`. */
export function lensStep(n: number, visibility: Visibility, body: Record<string, unknown>): ReasoningStep {
  return {
    stepId: `s${n}`,
    stepNumber: n,
    timestamp: `2026-01-01T00:00:${String(n).padStart(2, '0')}.000Z`,
    iteration: 0,
    visibility,
    ...body,
  } as ReasoningStep;
}

const full: Visibility = { level: 'full' };

const approval: ApprovalRecord = {
  callId: 'c2',
  stepId: 's8',
  toolName: 'charge',
  arguments: { amount: 5, card: { number: CARD } },
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
 * Twelve steps of agent `billing` for tenant `acme`: a thought, a hidden thought, a model call and
 * its result (with tokens), a database lookup returning an account number (a tenant's masked field,
 * repeated by a later thought), a skill call, an external `charge` with a sensitive card and its
 * approval, a sub-agent call and result, and the answer.
 */
export function lensChain(): ReasoningChain {
  return ReasoningChain.parse({
    schemaVersion: 1,
    chainId: 'wf-lens',
    agentName: 'billing',
    task: 'Charge the customer',
    startedAt: '2026-01-01T00:00:00.000Z',
    status: 'completed',
    caller: { id: 'ann', roles: [], tenant: 'acme' },
    approvals: [approval],
    subAgents: [
      {
        callId: 'sa1',
        agentName: 'helper',
        workflowId: 'wf-lens/sub-1',
        status: 'completed',
        budget: { maxIterations: 3 },
        costUsd: 0.5,
        steps: 7,
      },
    ],
    steps: [
      lensStep(1, full, { type: 'thinking', thought: 'I will look the customer up.' }),
      lensStep(2, { level: 'hidden' }, { type: 'thinking', thought: 'private musing' }),
      lensStep(3, full, {
        type: 'tool_call',
        model: 'm-1',
        usage: { inputTokens: 10, outputTokens: 5 },
        toolCall: { toolType: 'llm', toolName: 'm-1', arguments: { prompt: 'p' }, correlationId: 'm1' },
      }),
      lensStep(4, full, {
        type: 'tool_result',
        model: 'm-1',
        usage: { inputTokens: 10, outputTokens: 5 },
        costUsd: 0.01,
        toolResult: { correlationId: 'm1', success: true, result: { text: 'model says' }, durationMs: 1 },
      }),
      lensStep(5, full, {
        type: 'tool_call',
        toolCall: { toolType: 'database', toolName: 'lookup', arguments: { name: 'Ann' }, correlationId: 'c1' },
      }),
      lensStep(
        6,
        { level: 'full', summary: 'Found the customer' },
        {
          type: 'tool_result',
          toolResult: { correlationId: 'c1', success: true, result: { account: ACCOUNT, plan: 'gold' }, durationMs: 2 },
        },
      ),
      lensStep(7, full, { type: 'thinking', thought: `Account ${ACCOUNT} is on gold.` }),
      lensStep(8, full, {
        type: 'tool_call',
        toolCall: {
          toolType: 'external',
          toolName: 'charge',
          arguments: { amount: 5, card: { number: CARD } },
          correlationId: 'c2',
          sensitiveFields: ['card.number'],
        },
      }),
      lensStep(9, full, {
        type: 'tool_result',
        toolResult: { correlationId: 'c2', success: true, result: { charged: true }, durationMs: 3 },
      }),
      lensStep(10, full, {
        type: 'tool_call',
        toolCall: { toolType: 'skill', toolName: 'format', arguments: { style: 'short' }, correlationId: 'k1' },
      }),
      lensStep(11, full, {
        type: 'tool_result',
        toolResult: {
          correlationId: 'sa1',
          success: true,
          result: 'helped',
          durationMs: 4,
          subAgent: {
            callId: 'sa1',
            agentName: 'helper',
            workflowId: 'wf-lens/sub-1',
            status: 'completed',
            budget: { maxIterations: 3 },
            costUsd: 0.5,
          },
        },
      }),
      lensStep(12, full, {
        type: 'synthesis',
        synthesis: { sources: ['s6'], conclusion: 'Charged Ann.', confidence: 0.9 },
      }),
    ],
  });
}

/** The visible step numbers of a view. */
export const numbers = (chain: ReasoningChain): number[] => chain.steps.map((s) => s.stepNumber);

/** The step numbered `n` of a view, or a failure naming it. */
export function stepNumbered(chain: ReasoningChain, n: number): ReasoningStep {
  const found = chain.steps.find((s) => s.stepNumber === n);
  if (!found) throw new Error(`no step ${n} in view`);
  return found;
}
