import { setHandler } from '@temporalio/workflow';
import { z } from 'zod';
import { AnswerRequest, ApprovalDecision, type AgentStatus } from '../../shared';
import { queryRole, viewChain, viewStatus } from '../../shared/chain-view';
import type { RunContext } from '../core/run-context';
import type { SubAgentTree } from '../delegation/sub-agent-tree';
import { answerUpdate, approveToolCallUpdate, cancelSignal, chainQuery, resolveStallUpdate, statusQuery, steerSignal, subAgentApprovalsSignal, type StallDecision } from '../messages';
import type { People } from '../people/people';
import type { Interrupts } from './interrupts';

/** Checks an update's payload against its schema; the validator's error is what the caller reads. */
function parseMessage<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`Malformed ${what}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * Every query, signal and update of an agent run. Signal handlers only record and queue (a
 * throwing one would wedge the run); updates refuse in their validators, so a refused one never
 * reaches history. Registered before the loop starts, in this order, which recorded histories
 * rely on: a message buffered at start is handled when its handler is set.
 */
export function registerHandlers(ctx: RunContext, people: People, tree: SubAgentTree, interrupts: Interrupts, status: () => AgentStatus): void {
  const { input, chain, state, progress } = ctx;
  const { gate, desk, inbox, stall } = people;
  // A role the query does not know fails the query (not the run) with the list of valid roles.
  setHandler(chainQuery, (role?: unknown) => viewChain(chain.snapshot(), queryRole(role)));
  // Same roles and default as `chain`; callers that pass no role (older clients) get `developer`.
  setHandler(statusQuery, (role?: unknown) => viewStatus(status(), queryRole(role), chain.steps));
  setHandler(cancelSignal, ({ reason, by } = {}) => {
    if (!state.requestCancel(`${reason ?? 'no reason given'}${by ? `, by ${by}` : ''}`)) return;
    chain.thinking(`Cancel requested (${state.cancelRequested}); finishing the current step, then summarising.`, { level: 'full' }, { kind: 'cancel', by: by ?? 'unknown' });
    // Sub-agents hear why, so their own chains say it; the scope's cancel then stops them.
    tree.forward(cancelSignal, { reason: `the parent run was cancelled: ${reason ?? 'no reason given'}`, ...(by ? { by } : {}) });
    progress.details();
    // In-flight work gets a grace period, then is cancelled like a Temporal cancel.
    interrupts.cancelAfterGrace(input.cancelGraceMs, () => `The run was cancelled (${state.cancelRequested}).`);
  });
  setHandler(
    resolveStallUpdate,
    (decision) => {
      stall.receive(decision);
      return `The run will ${decision.continue ? 'continue' : 'stop'}.`;
    },
    { validator: (_decision: StallDecision) => stall.check() },
  );
  setHandler(
    approveToolCallUpdate,
    (raw) => {
      const decision = ApprovalDecision.parse(raw);
      const record = gate.decide(decision);
      const roles = decision.by.roles.length ? ` (${decision.by.roles.join(', ')})` : '';
      const note = record.note ? `: ${record.note}` : '';
      chain.thinking(`${decision.approved ? 'Approved' : 'Rejected'} by ${decision.by.id}${roles}: ${record.toolName} (call ${record.callId})${note}`, { level: 'full' }, { kind: 'approval', by: decision.by.id });
      progress.details();
      return record;
    },
    { validator: (raw) => gate.check(parseMessage(ApprovalDecision, raw, 'decision')) },
  );
  setHandler(subAgentApprovalsSignal, ({ workflowId: child, pending }) => {
    if (tree.receive(child, pending)) progress.publish();
  });
  setHandler(steerSignal, (request) => {
    inbox.receive(request);
    progress.details();
  });
  setHandler(
    answerUpdate,
    (request) => {
      desk.receive(request);
      return 'Answer received; the run goes on.';
    },
    { validator: (request) => desk.check(parseMessage(AnswerRequest, request, 'answer')) },
  );
}
