import { argumentsHash, type ApprovalRecord, type ToolUseBlock } from '../../domain';
import type { ToolCallStep } from '../core/chain/chain-builder';
import type { Observation, ValidCall } from '../core/model-exchange';
import { recordToolCall } from '../core/chain/record-calls';
import type { RunContext } from '../core/state/run-context';
import type { ApprovalGate } from './approval-gate';
import { inWords } from './wait-in-words';

/** A call that needs a person's approval before it runs, and why. */
export interface ApprovalNeeded {
  call: ToolUseBlock;
  check: ValidCall;
  reason: string;
  /** The call's step when it was recorded already (validated before approval). */
  step?: ToolCallStep;
}

/** Each requested call's final record and its recorded `tool_call` step, by call id. */
export type Decisions = Map<string, { record: ApprovalRecord; step: ToolCallStep }>;

/**
 * Asks for every approval of one turn at once: each call is recorded and shown as waiting, the
 * run waits (at no cost) until all are decided or `approvalTimeoutMs` passes, and undecided
 * calls time out. Approved calls then run exactly the arguments that were shown and hashed.
 */
export async function requestApprovals(
  ctx: RunContext,
  gate: ApprovalGate,
  needed: readonly ApprovalNeeded[],
): Promise<Decisions> {
  const steps = new Map<string, ToolCallStep>();
  if (needed.length === 0) return new Map();
  const { chain, input, workflowId } = ctx;
  const requests = needed.map(({ call, check, reason, step: recorded }) => {
    const step = recorded ?? recordToolCall(chain, input, check.spec, call.id, check.args, check.routed);
    steps.set(call.id, step);
    chain.thinking(
      `Waiting for approval of ${check.spec.name} (call ${call.id}): ${reason}. Decide with: thoughtline approve ${workflowId} ${call.id}  (or reject … --reason)`,
      { level: 'full' },
    );
    const sensitive = check.spec.sensitiveFields?.length ? { sensitiveFields: [...check.spec.sensitiveFields] } : {};
    return {
      callId: call.id,
      stepId: step.stepId,
      toolName: check.spec.name,
      arguments: check.args,
      ...sensitive,
      argumentsHash: argumentsHash(check.args),
      reason,
      approverRoles: check.spec.approverRoles ?? [],
    };
  });
  chain.setStatus('waiting');
  // Open, then publish (the search attribute says waiting_approval), then the timer: this order is in recorded histories.
  gate.open(requests, new Date(Date.now() + input.approvalTimeoutMs).toISOString());
  ctx.progress.publish();
  const records = await gate.wait(requests, input.approvalTimeoutMs);
  chain.setStatus('tool_calling');
  ctx.progress.publish();
  return new Map(records.map((record) => [record.callId, { record, step: steps.get(record.callId)! }]));
}

/** A rejected or timed-out call: its result in the chain, and an error observation for the model. */
export function notApproved(ctx: RunContext, record: ApprovalRecord, step: ToolCallStep): Observation {
  const error =
    record.status === 'rejected'
      ? `Not run: ${record.decidedBy?.id ?? 'a person'} rejected this call: ${record.note ?? 'no reason given'}.`
      : `Not run: nobody approved this call within ${inWords(ctx.input.approvalTimeoutMs)}.`;
  ctx.chain.toolResult(
    { correlationId: record.callId, success: false, result: null, error, durationMs: 0 },
    step.visibility,
  );
  return { callId: record.callId, content: error, isError: true };
}
