import type { ReasoningChain, TokenUsage } from '../../domain';
import { ledgerAsOf, planAsOf } from './plan-fork';

/** A run as it stood at one step: the chain through it, the spend so far, the plan then. */
export interface ChainAsOf {
  asOfStep: number;
  /** The chain through `asOfStep`: later approvals' decisions read as pending, later sub-agents as running. */
  chain: ReasoningChain;
  ledger: { usage: TokenUsage; costUsd: number; modelCalls: number; toolCalls: number; iteration: number };
}

/**
 * Time travel over a chain: everything as it stood once step `asOfStep` was recorded. Pure. A
 * step past the last gives the chain as it is; the chain must hold every step up to it (join
 * the earlier Temporal runs' steps first).
 */
export function chainAsOf(chain: ReasoningChain, asOfStep: number): ChainAsOf {
  const steps = chain.steps.filter((s) => s.stepNumber <= asOfStep);
  const last = steps.at(-1);
  const at = last?.timestamp ?? chain.startedAt;
  const kept = new Set(steps.map((s) => s.stepId));
  const answered = new Set(steps.flatMap((s) => (s.type === 'tool_result' ? [s.toolResult.correlationId] : [])));
  const approvals = chain.approvals
    ?.filter((a) => kept.has(a.stepId))
    .map((a) =>
      a.decidedAt !== undefined && a.decidedAt > at
        ? { ...a, status: 'pending' as const, decidedAt: undefined, decidedBy: undefined, note: undefined }
        : a,
    )
    .map((a) => Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)) as typeof a);
  const subAgents = chain.subAgents
    ?.filter(
      (s) =>
        answered.has(s.callId) || steps.some((st) => st.type === 'tool_call' && st.toolCall.correlationId === s.callId),
    )
    .map((s) =>
      answered.has(s.callId)
        ? s
        : {
            callId: s.callId,
            agentName: s.agentName,
            workflowId: s.workflowId,
            ...(s.runId ? { runId: s.runId } : {}),
            status: 'running' as const,
            budget: s.budget,
          },
    );
  const plan = planAsOf(chain.steps, asOfStep);
  const { completedAt: _completed, plan: _plan, approvals: _approvals, subAgents: _subAgents, ...rest } = chain;
  const finished =
    last !== undefined && last.stepNumber === chain.steps.at(-1)?.stepNumber && chain.completedAt !== undefined;
  return {
    asOfStep,
    chain: {
      ...rest,
      status: finished ? chain.status : last?.type === 'tool_call' ? 'tool_calling' : 'thinking',
      ...(finished ? { completedAt: chain.completedAt } : {}),
      steps,
      ...(approvals?.length ? { approvals } : {}),
      ...(subAgents?.length ? { subAgents } : {}),
      ...(plan ? { plan } : {}),
    },
    ledger: { ...ledgerAsOf(chain.steps, asOfStep), iteration: last?.iteration ?? 0 },
  };
}
