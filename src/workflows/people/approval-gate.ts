import { ApplicationFailure, condition } from '@temporalio/workflow';
import { ApprovalDecision, type ApprovalRecord } from '../../domain';
import { roleProblem } from '../../domain/approval/decision-roles';
import { FailureType } from '../../domain/run/failure-types';
import type { ChainBuilder } from '../core/chain/chain-builder';
import { cutText, readMessage } from '../core/read-message';

/** Longest rejection reason (or approver's comment) accepted; the validator refuses longer ones (the model reads it whole). */
export const MAX_DECISION_REASON_CHARS = 2_000;
/** Longest result a person may give when marking a lost call done. */
export const MAX_MARKED_RESULT_CHARS = 4_000;
/** Longest approver id accepted. */
export const MAX_APPROVER_ID_CHARS = 200;

/** What the gate needs to open a request; the rest is stamped here. */
export interface ApprovalRequest {
  callId: string;
  stepId: string;
  toolName: string;
  arguments: Record<string, unknown>;
  /** The tool's sensitive fields, so views of the record (also a parent's) can hide them. */
  sensitiveFields?: string[];
  argumentsHash: string;
  reason: string;
  approverRoles: string[];
  /** `outcome_unknown`: a lost `once` call, not a call waiting to run (ApprovalRecord.kind). */
  kind?: 'outcome_unknown';
}

/**
 * Approval requests and decisions of one agent run. The records live in the chain (so they are
 * queried, exported and carried across continue-as-new with it); this class only changes them.
 * `check` is the update's validator: a decision it refuses never reaches history.
 */
export class ApprovalGate {
  constructor(
    private readonly chain: ChainBuilder,
    private readonly runId: string,
    private readonly now: () => string,
  ) {}

  pending(): ApprovalRecord[] {
    return this.chain.approvals.filter((r) => r.status === 'pending');
  }

  /**
   * Throws (refusing the update) unless the payload parses as a decision that names a pending
   * call, with an allowed role that a verified signature vouches for (`rolesVerified`), the shown
   * arguments, and a reason within the limit.
   */
  check(raw: unknown, rolesVerified: boolean): void {
    const decision = readMessage(ApprovalDecision, raw);
    if (!decision) {
      throw new Error(
        'Malformed decision: expected { callId: string, approved: boolean, by: { id: string, roles?: string[] }, argumentsHash: string, reason?: string }.',
      );
    }
    if (decision.by.id.length > MAX_APPROVER_ID_CHARS)
      throw new Error(`An approver's id has at most ${MAX_APPROVER_ID_CHARS} characters.`);
    if ((decision.reason?.length ?? 0) > MAX_DECISION_REASON_CHARS) {
      throw new Error(
        `A decision's reason has at most ${MAX_DECISION_REASON_CHARS} characters; this one has ${decision.reason!.length}.`,
      );
    }
    const record = this.chain.approvals.find((r) => r.callId === decision.callId);
    if (!record) {
      const pending = this.pending().map((r) => r.callId);
      throw new Error(
        `No tool call "${decision.callId}" awaits approval in this run. Pending: ${pending.length ? pending.join(', ') : 'none'}.`,
      );
    }
    if (record.status !== 'pending') {
      const who = record.decidedBy ? ` by ${record.decidedBy.id}` : '';
      throw new Error(
        `Tool call "${record.callId}" (${record.toolName}) was already ${record.status.replace('_', ' ')}${who}${record.decidedAt ? ` at ${record.decidedAt}` : ''}.`,
      );
    }
    const refused = roleProblem(
      { ...decision.by, rolesVerified },
      record.approverRoles,
      `decide on ${record.toolName}`,
    );
    if (refused !== undefined) throw new Error(refused);
    if (decision.argumentsHash !== record.argumentsHash) {
      throw new Error(
        `The arguments hash ${decision.argumentsHash} does not match the call's arguments (${record.argumentsHash}); fetch the pending call again and review what will run.`,
      );
    }
    if (!decision.approved && !decision.reason?.trim())
      throw new Error('A rejection needs a reason; the model reads it.');
    if ((decision.markDone || decision.result !== undefined) && record.kind !== 'outcome_unknown')
      throw new Error(
        `markDone and result are for a call whose outcome is unknown; ${record.callId} waits for approval to run.`,
      );
    if (decision.markDone && !decision.approved)
      throw new Error('markDone needs approved: true (the effect happened); to give up, reject with a reason.');
    if (decision.result !== undefined && !decision.markDone) throw new Error('A result goes with markDone: true.');
    if ((decision.result?.length ?? 0) > MAX_MARKED_RESULT_CHARS)
      throw new Error(`A marked-done result has at most ${MAX_MARKED_RESULT_CHARS} characters.`);
  }

  /**
   * The update's handler, so total: on replay the validator does not run, and histories hold
   * decisions accepted before the limits. A payload it cannot read or apply fails the update
   * (an ApplicationFailure), never the workflow task; a reason past the limit is cut with a marker.
   */
  decide(raw: unknown): { decision: ApprovalDecision; record: ApprovalRecord } {
    const decision = readMessage(ApprovalDecision, raw);
    if (!decision) throw ApplicationFailure.nonRetryable('Malformed decision.', FailureType.MalformedMessage);
    const record = this.chain.approvals.find((r) => r.callId === decision.callId);
    if (!record)
      throw ApplicationFailure.nonRetryable(`No approval request ${decision.callId}`, FailureType.MalformedMessage);
    const note = decision.reason?.trim() ? cutText(decision.reason.trim(), MAX_DECISION_REASON_CHARS) : undefined;
    // Only an approval of a lost call may mark it done; anything else is read as not marked.
    const markedDone = record.kind === 'outcome_unknown' && decision.approved && decision.markDone === true;
    const decided: ApprovalRecord = {
      ...record,
      status: decision.approved ? 'approved' : 'rejected',
      decidedAt: this.now(),
      decidedBy: { ...decision.by, id: cutText(decision.by.id, MAX_APPROVER_ID_CHARS) },
      ...(note ? { note } : {}),
      ...(markedDone ? { markedDone } : {}),
      ...(markedDone && decision.result ? { result: cutText(decision.result, MAX_MARKED_RESULT_CHARS) } : {}),
    };
    this.chain.putApproval(decided);
    return { decision, record: decided };
  }

  /** Opens the requests (no history event); status and search attributes see them from now on. */
  open(requests: readonly ApprovalRequest[], expiresAt: string): void {
    for (const request of requests) {
      this.chain.putApproval({ ...request, runId: this.runId, requestedAt: this.now(), expiresAt, status: 'pending' });
    }
  }

  /**
   * Waits, at no cost, until every opened request is decided or the timeout passes; undecided
   * ones become `timed_out`. Returns the final records, in request order.
   */
  async wait(requests: readonly ApprovalRequest[], timeoutMs: number): Promise<ApprovalRecord[]> {
    const ids = new Set(requests.map((r) => r.callId));
    const open = () => this.chain.approvals.filter((r) => ids.has(r.callId) && r.status === 'pending');
    await condition(() => open().length === 0, timeoutMs);
    // A decision that landed in the same activation as the timer wins: only what is still open times out.
    for (const record of open()) this.chain.putApproval({ ...record, status: 'timed_out', decidedAt: this.now() });
    return requests.map((r) => this.chain.approvals.find((a) => a.callId === r.callId)!);
  }
}
