import { ActivityFailure, isCancellation, TimeoutFailure } from '@temporalio/workflow';
import {
  argumentsHash,
  type NarrowedVisibility,
  type ToolOutput,
  type ToolSpec,
  type ToolUseBlock,
} from '../../domain';
import { activities, toolHookOptions } from '../activity-proxies';
import { failureMessage } from '../core/failure-message';
import type { RunContext } from '../core/state/run-context';
import type { ApprovalGate } from '../people/approval-gate';
import { inWords } from '../people/wait-in-words';
import type { RunTool } from './elicited-run';

/** Most attempts one `once` call gets when each is lost: past it the run gives up on the call. */
export const MAX_ONCE_ATTEMPTS = 5;

/** An attempt the server gave up on (heartbeat or start-to-close timeout): its effect may or may not have happened. */
export function isLostAttempt(err: unknown): boolean {
  return err instanceof ActivityFailure && err.cause instanceof TimeoutFailure;
}

/**
 * A `once` call gave up on: its effect may or may not have happened. Caught where the call's result
 * is recorded (tool-call.ts), which records `outcome: 'unknown'`; never leaves the workflow.
 */
export class OutcomeUnknown extends Error {
  override readonly name = 'OutcomeUnknown';
}

/** What settles a lost attempt: the effect happened (with a result), run it again, or give up. */
type Settled =
  | { kind: 'happened'; result: unknown; truncated?: boolean; visibility?: NarrowedVisibility }
  | { kind: 'run_again' }
  | { kind: 'give_up'; why: string };

export interface OnceCall {
  call: ToolUseBlock;
  spec: ToolSpec;
  args: Record<string, unknown>;
  stepId: string;
  /** Where a person is asked; without one (no gate) a lost call is given up at once. */
  gate: ApprovalGate | undefined;
}

/**
 * Runs an `effects: 'once'` call, scheduled with one attempt: a failure the tool threw is the
 * caller's, as for any tool. A lost attempt is not run again blindly: the tool's `reconcile` hook
 * says whether the effect happened; without one, or when it fails, a person decides through the
 * approval path (run again, mark done, give up; no decision within approvalTimeoutMs gives up).
 * Every step of it is a thinking step in the chain. `settled`: the output is not a `runTool`
 * result (reconcile's or a person's), so no worker holds its text. Deterministic.
 */
export async function runOnce(
  ctx: RunContext,
  once: OnceCall,
  runner: RunTool,
  invocation: Parameters<RunTool>[0],
): Promise<{ out: ToolOutput; settled: boolean }> {
  const { chain } = ctx;
  const { spec, call } = once;
  for (let attempt = 1; ; attempt++) {
    try {
      return { out: await runner(invocation), settled: false };
    } catch (err) {
      if (!isLostAttempt(err)) throw err;
      chain.thinking(
        `Attempt ${attempt} of ${spec.name} (call ${call.id}) was lost (${failureMessage(err)}); its effect happens once, so it is not simply run again.`,
        { level: 'full' },
      );
      if (attempt >= MAX_ONCE_ATTEMPTS)
        throw new OutcomeUnknown(
          `${spec.name}: ${attempt} attempts were lost; the run gives up on it. Its effect may or may not have happened.`,
        );
      const settled = await settle(ctx, once, invocation, attempt);
      if (settled.kind === 'run_again') {
        chain.thinking(`Running ${spec.name} (call ${call.id}) again with the same idempotency key.`, {
          level: 'full',
        });
        continue;
      }
      if (settled.kind === 'give_up') throw new OutcomeUnknown(settled.why);
      const { result, truncated, visibility } = settled;
      const out = {
        result,
        truncated: truncated ?? false,
        durationMs: 0,
        attempts: attempt,
        ...(visibility ? { visibility } : {}),
      };
      return { out, settled: true };
    }
  }
}

async function settle(
  ctx: RunContext,
  once: OnceCall,
  invocation: Parameters<RunTool>[0],
  attempt: number,
): Promise<Settled> {
  const { spec, call } = once;
  if (spec.reconciles) {
    try {
      const found = await activities.reconcileTool.executeWithOptions(toolHookOptions(spec, 'reconcile'), [
        {
          toolName: spec.name,
          arguments: invocation.arguments,
          idempotencyKey: invocation.idempotencyKey,
          maxResultChars: invocation.maxResultChars,
        },
      ]);
      ctx.chain.thinking(
        `${spec.name}'s reconcile says the effect of call ${call.id} ${found.happened ? 'happened' : 'did not happen'}.`,
        { level: 'full' },
      );
      if (!found.happened) return { kind: 'run_again' };
      return {
        kind: 'happened',
        result:
          found.result === undefined ? `Done: ${spec.name}'s effect happened (found by reconcile).` : found.result,
        ...(found.truncated ? { truncated: true } : {}),
        ...(found.visibility ? { visibility: found.visibility } : {}),
      };
    } catch (err) {
      if (isCancellation(err)) throw err;
      ctx.chain.thinking(`${spec.name}'s reconcile failed: ${failureMessage(err)}. A person decides.`, {
        level: 'full',
      });
    }
  }
  return askPerson(ctx, once, attempt);
}

/** The outcome-unknown question, through the approval gate: the `approveToolCall` update answers it. */
async function askPerson(ctx: RunContext, once: OnceCall, attempt: number): Promise<Settled> {
  const { chain, input, workflowId } = ctx;
  const { spec, call, args, gate } = once;
  if (!gate) return { kind: 'give_up', why: `${spec.name}'s outcome is unknown and nobody can be asked.` };
  const callId = `${call.id}:outcome-${attempt}`;
  const request = {
    callId,
    stepId: once.stepId,
    toolName: spec.name,
    arguments: args,
    ...(spec.sensitiveFields?.length ? { sensitiveFields: [...spec.sensitiveFields] } : {}),
    argumentsHash: argumentsHash(args),
    reason: `outcome unknown: attempt ${attempt} was lost and its effect may or may not have happened`,
    approverRoles: spec.approverRoles ?? [],
    kind: 'outcome_unknown' as const,
  };
  chain.thinking(
    `Outcome of ${spec.name} (call ${call.id}) unknown: waiting for a person. Approve to run it again, approve with markDone (and a result) if it took effect, or reject to give up: ${callId} in ${workflowId}.`,
    { level: 'full' },
  );
  chain.setStatus('waiting');
  gate.open([request], new Date(Date.now() + input.approvalTimeoutMs).toISOString());
  ctx.progress.publish();
  const [record] = await gate.wait([request], input.approvalTimeoutMs);
  chain.setStatus('tool_calling');
  ctx.progress.publish();
  const by = record?.decidedBy?.id ?? 'a person';
  if (record?.status === 'approved' && record.markedDone) {
    chain.thinking(`${by} marked ${spec.name} (call ${call.id}) done.`, { level: 'full' });
    return { kind: 'happened', result: record.result ?? `Done: ${by} confirmed ${spec.name}'s effect happened.` };
  }
  if (record?.status === 'approved') {
    chain.thinking(`${by} chose to run ${spec.name} (call ${call.id}) again.`, { level: 'full' });
    return { kind: 'run_again' };
  }
  if (record?.status === 'rejected')
    return {
      kind: 'give_up',
      why: `${by} gave up on ${spec.name} after a lost attempt: ${record.note ?? 'no reason given'}. Its effect may or may not have happened.`,
    };
  return {
    kind: 'give_up',
    why: `Nobody decided within ${inWords(input.approvalTimeoutMs)} whether ${spec.name} took effect after a lost attempt; the run gives up on it. Its effect may or may not have happened.`,
  };
}
