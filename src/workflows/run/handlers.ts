import { ApplicationFailure, setHandler } from '@temporalio/workflow';
import { FailureType } from '../../domain/run/failure-types';
import {
  type AgentStatus,
  type ApprovalRecord,
  type ModelContext,
  type ModelMessage,
  type ReasoningChain,
} from '../../domain';
import { chainPage, queryPage } from '../../domain/chain/chain-page';
import { queryRole, viewChain, viewStatus } from '../../domain/chain/chain-view';
import { queryLens } from '../../domain/visibility/query-lens';
import { rolesInWords } from '../../domain/approval/decision-roles';
import type { RunContext } from '../core/state/run-context';
import { cutText, readMessage } from '../core/read-message';
import { decodeSignalPayload, rawSignal } from '../core/signal-payload';
import type { SubAgentTree } from '../delegation/sub-agent-tree';
import {
  answerUpdate,
  approveToolCallUpdate,
  CancelRequestSchema,
  cancelSignal,
  chainQuery,
  MAX_CANCEL_TEXT_CHARS,
  modelContextQuery,
  modelConversationQuery,
  raiseBudgetUpdate,
  resolveStallUpdate,
  statusQuery,
  steerSignal,
  subAgentApprovalsSignal,
} from '../messages';
import type { People } from '../people/people';
import type { Interrupts } from './interrupts';

/** Refused messages recorded in the chain per Temporal run; later ones are only counted, so a flood cannot grow the chain. */
export const MAX_REFUSED_MESSAGES_RECORDED = 20;

/** Every handler and validator of an agent run, as plain functions (registered by registerHandlers; unit-tested directly). */
export interface MessageHandlers {
  chain(role?: unknown, page?: unknown, lens?: unknown): ReasoningChain;
  conversation(hash?: unknown): ModelMessage[] | null;
  context(hash?: unknown): ModelContext | null;
  status(role?: unknown, lens?: unknown): AgentStatus;
  cancel(raw?: unknown): void;
  steer(raw: unknown): void;
  subAgentApprovals(raw: unknown): void;
  resolveStall: { handler(raw: unknown): string; validator(raw: unknown): void };
  approveToolCall: { handler(raw: unknown): ApprovalRecord; validator(raw: unknown): void };
  answer: { handler(raw: unknown): string; validator(raw: unknown): void };
  raiseBudget: { handler(raw: unknown): string; validator(raw: unknown): void };
}

/**
 * The handlers of one run. Every one is total over any payload a caller can send: signals parse
 * with a schema and ignore what does not parse (recording it as a refused message, bounded);
 * updates refuse in their validators, so a refused one never reaches history, and their handlers
 * (which replay runs without the validator) fail only the update, with an ApplicationFailure,
 * never the workflow task; queries answer a clear error for a bad argument. Deterministic.
 */
export function messageHandlers(
  ctx: RunContext,
  people: People,
  tree: SubAgentTree,
  interrupts: Interrupts,
  status: () => AgentStatus,
): MessageHandlers {
  const { input, chain, state, progress } = ctx;
  const { gate, desk, inbox, stall, budget, signatures } = people;
  let refusedMessages = 0;
  /** A signal refused: a visible step for the first few, then only a count. */
  const refuseWith = (signal: string, why: string) => {
    refusedMessages++;
    if (refusedMessages > MAX_REFUSED_MESSAGES_RECORDED + 1) return;
    const thought =
      refusedMessages <= MAX_REFUSED_MESSAGES_RECORDED
        ? `Refused a "${signal}" message: ${why}.`
        : `Refused more than ${MAX_REFUSED_MESSAGES_RECORDED} malformed messages; further ones are ignored without a step.`;
    chain.thinking(thought, { level: 'full' });
    progress.details();
  };
  const refuse = (signal: string, expected: string) =>
    refuseWith(signal, `its payload does not parse (expected ${expected})`);
  return {
    // A role the query does not know fails the query (not the run) with the list of valid roles.
    conversation: (hash) => ctx.conversations.find(hash) ?? null,
    context: (hash) => ctx.conversations.findContext(hash) ?? null,
    // The page is cut from the whole view, so a result is redacted by what its call said earlier.
    // A lens that does not parse fails the query: never a view without the policy it asked for.
    chain: (role, page, lens) => {
      const wanted = queryPage(page);
      const viewer = queryRole(role);
      return chainPage(viewChain(chain.snapshot(), viewer, queryLens(lens, viewer)), wanted);
    },
    // Same roles and default as `chain`; callers that pass no role (older clients) get `developer`.
    status: (role, lens) => {
      const viewer = queryRole(role);
      return viewStatus(status(), viewer, chain.steps, queryLens(lens, viewer));
    },
    cancel: (raw) => {
      const request = readMessage(CancelRequestSchema, raw);
      if (!request) return refuse('cancel', '{ reason?: string, by?: string }');
      const reason = cutText(request.reason ?? 'no reason given', MAX_CANCEL_TEXT_CHARS);
      const by = request.by ? cutText(request.by, MAX_CANCEL_TEXT_CHARS) : undefined;
      if (!state.requestCancel(`${reason}${by ? `, by ${by}` : ''}`)) return;
      chain.thinking(
        `Cancel requested (${state.cancelRequested}); finishing the current step, then summarising.`,
        { level: 'full' },
        { kind: 'cancel', by: by ?? 'unknown' },
      );
      // Sub-agents hear why, so their own chains say it; the scope's cancel then stops them.
      if (tree.running().length > 0) {
        tree.forward(cancelSignal, { reason: `the parent run was cancelled: ${reason}`, ...(by ? { by } : {}) });
      }
      progress.details();
      // In-flight work gets a grace period, then is cancelled like a Temporal cancel.
      interrupts.cancelAfterGrace(input.cancelGraceMs, () => `The run was cancelled (${state.cancelRequested}).`);
    },
    steer: (raw) => {
      // A signal cannot be refused before it reaches history: an unsigned, forged or replayed
      // instruction is dropped here, visibly. A queued signed one is recorded as used.
      const verdict = signatures.check('steer', raw);
      if (verdict.problem !== undefined)
        return refuseWith('steer', `dropped an unsigned, forged or replayed instruction (${verdict.problem})`);
      const outcome = inbox.receive(raw);
      if (outcome === 'malformed') return refuse('steer', '{ text: string, by?: string }');
      if (outcome === 'queued') {
        signatures.accept('steer', raw);
        progress.details();
      }
    },
    subAgentApprovals: (raw) => {
      if (tree.receive(raw)) progress.publish();
    },
    resolveStall: {
      validator: (raw) => stall.check(raw),
      handler: (raw) => {
        const decision = stall.receive(raw);
        if (!decision) return 'The decision could not be read; the run still waits.';
        return `The run will ${decision.continue ? 'continue' : 'stop'}.`;
      },
    },
    approveToolCall: {
      validator: (raw) => {
        gate.check(raw, signatures.check('approval', raw).rolesVerified);
        signatures.require('approval', raw);
      },
      handler: (raw) => {
        // Total: a replayed signature (two copies validated before either was handled) fails the update only.
        const verdict = signatures.accept('approval', raw);
        if (verdict.problem !== undefined)
          throw ApplicationFailure.nonRetryable(`Refused: ${verdict.problem}.`, FailureType.MalformedMessage);
        const { decision, record } = gate.decide(raw);
        const roles = rolesInWords({ roles: decision.by.roles, rolesVerified: verdict.rolesVerified });
        const note = record.note ? `: ${record.note}` : '';
        const by = record.decidedBy?.id ?? decision.by.id;
        chain.thinking(
          `${decision.approved ? 'Approved' : 'Rejected'} by ${by}${roles}: ${record.toolName} (call ${record.callId})${note}`,
          { level: 'full' },
          { kind: 'approval', by },
        );
        progress.details();
        return record;
      },
    },
    answer: {
      validator: (raw) => {
        desk.check(raw);
        signatures.require('answer', raw);
      },
      handler: (raw) => {
        if (signatures.check('answer', raw).problem !== undefined)
          return 'The answer was refused (unsigned, forged or used before); the run still waits.';
        if (!desk.receive(raw)) return 'The answer could not be read or no question is open; the run goes on.';
        signatures.accept('answer', raw);
        return 'Answer received; the run goes on.';
      },
    },
    raiseBudget: {
      validator: (raw) => {
        budget.check(raw, signatures.check('budget', raw).rolesVerified);
        signatures.require('budget', raw);
      },
      // The raise is recorded in the chain by the paused loop (loop/guards/budget-pause.ts), once.
      handler: (raw) => {
        const verdict = signatures.check('budget', raw);
        const raise = verdict.problem === undefined ? budget.receive(raw, verdict.rolesVerified) : undefined;
        if (!raise) return 'The raise could not be read or does not answer the pause; the run still waits.';
        signatures.accept('budget', raw);
        return raise.stop ? 'The run will stop at its budget.' : 'Budget raised; the run goes on.';
      },
    },
  };
}

/**
 * Every query, signal and update of an agent run, registered before the loop starts, in this
 * order, which recorded histories rely on: a message buffered at start is handled when its
 * handler is set.
 */
export function registerHandlers(
  ctx: RunContext,
  people: People,
  tree: SubAgentTree,
  interrupts: Interrupts,
  status: () => AgentStatus,
): void {
  const h = messageHandlers(ctx, people, tree, interrupts, status);
  setHandler(chainQuery, h.chain);
  setHandler(modelConversationQuery, h.conversation);
  setHandler(modelContextQuery, h.context);
  setHandler(statusQuery, h.status);
  // Signals arrive undecoded (see rawSignal): bytes that do not decode are refused like any bad payload.
  setHandler(rawSignal(cancelSignal.name), (raw) => h.cancel(decodeSignalPayload(raw)));
  setHandler(resolveStallUpdate, h.resolveStall.handler, { validator: h.resolveStall.validator });
  setHandler(approveToolCallUpdate, h.approveToolCall.handler, { validator: h.approveToolCall.validator });
  setHandler(rawSignal(subAgentApprovalsSignal.name), (raw) => h.subAgentApprovals(decodeSignalPayload(raw)));
  setHandler(rawSignal(steerSignal.name), (raw) => h.steer(decodeSignalPayload(raw)));
  setHandler(answerUpdate, h.answer.handler, { validator: h.answer.validator });
  setHandler(raiseBudgetUpdate, h.raiseBudget.handler, { validator: h.raiseBudget.validator });
}
