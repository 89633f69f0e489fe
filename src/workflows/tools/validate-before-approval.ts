import { isCancellation } from '@temporalio/workflow';
import type { ToolCallStep } from '../core/chain/chain-builder';
import { failureMessage } from '../core/failure-message';
import type { Observation } from '../core/model-exchange';
import { recordToolCall } from '../core/chain/record-calls';
import type { RunContext } from '../core/state/run-context';
import { activities, toolHookOptions } from '../activity-proxies';
import type { ApprovalNeeded } from '../people/approval-requests';
import { auditedResult } from '../../domain/tools/tool-audit';
import { withAlternatives } from './alternatives';
import { notRunResult, resultLimit } from './tool-call';

/** What validation before approval found for one call: its recorded step, and a refusal when refused. */
export interface PreValidated {
  step: ToolCallStep;
  refused?: Observation;
}

/**
 * Calls that need approval and whose tool has a `validate` hook are validated first (one
 * `validateToolCall` activity each, concurrently), so nobody is asked to approve a call the tool
 * would refuse. Calls of tools without a hook cost nothing here. A refused call is recorded with
 * its reason and becomes an error observation; a validator that cannot be reached refuses too
 * (fail-closed). Deterministic.
 */
export async function validateBeforeApproval(
  ctx: RunContext,
  needed: readonly ApprovalNeeded[],
): Promise<Map<string, PreValidated>> {
  const hooked = needed.filter((n) => n.check.spec.validates);
  const done = new Map<string, PreValidated>();
  if (hooked.length === 0) return done;
  await Promise.all(
    hooked.map(async ({ call, check }) => {
      const { spec, args } = check;
      const step = recordToolCall(ctx.chain, ctx.input, spec, call.id, args);
      let reason: string | undefined;
      try {
        const answer = await activities.validateToolCall.executeWithOptions(toolHookOptions(spec, 'validate'), [
          {
            toolName: spec.name,
            arguments: args,
            idempotencyKey: `${ctx.workflowId}:${step.stepId}`,
            maxResultChars: resultLimit(ctx.input, spec),
          },
        ]);
        reason = answer.refused;
      } catch (err) {
        if (isCancellation(err)) throw err;
        reason = `its validation could not run: ${failureMessage(err)}`;
      }
      if (reason === undefined) {
        done.set(call.id, { step });
        return;
      }
      const error = withAlternatives(spec, `Not run: ${spec.name} refused these arguments: ${reason}`);
      ctx.chain.toolResult(auditedResult(spec, notRunResult(call.id, error)), step.visibility);
      done.set(call.id, { step, refused: { callId: call.id, content: error, isError: true } });
    }),
  );
  return done;
}
