import type { AgentInput, ToolSpec, ToolUseBlock } from '../../../domain';
import { auditedArguments } from '../../../domain/tools/tool-audit';
import { toolStepVisibility } from './tool-visibility';
import type { ChainBuilder, ToolCallStep } from './chain-builder';
import type { Observation } from '../model-exchange';

// The chain's records of calls: ones that never reach a tool activity, and validated ones about to.

/** Records a call that never reached a tool activity (finish, give up, refused, not run) with its outcome. */
export function recordControlCall(
  chain: ChainBuilder,
  input: AgentInput,
  call: ToolUseBlock,
  outcome: { success: boolean; result?: string; error?: string },
): void {
  const visibility = { level: input.visibility };
  chain.toolCall(
    { toolType: 'custom', toolName: call.name, arguments: call.input, correlationId: call.id },
    visibility,
  );
  chain.toolResult(
    {
      correlationId: call.id,
      success: outcome.success,
      result: outcome.result ?? null,
      durationMs: 0,
      ...(outcome.error ? { error: outcome.error } : {}),
    },
    visibility,
  );
}

/** A refused call: shown in the chain, and an error observation the model reads next turn. */
export function refuseCall(
  chain: ChainBuilder,
  input: AgentInput,
  call: ToolUseBlock,
  observation: string,
): Observation {
  recordControlCall(chain, input, call, { success: false, error: observation });
  return { callId: call.id, content: observation, isError: true };
}

/** The tool_call step of a validated call, with its sensitive fields named for the views, and why the run chose its model. */
export function recordToolCall(
  chain: ChainBuilder,
  input: AgentInput,
  spec: ToolSpec,
  callId: string,
  args: Record<string, unknown>,
  routed?: string,
): ToolCallStep {
  const sensitive = spec.sensitiveFields?.length ? { sensitiveFields: spec.sensitiveFields } : {};
  // A delegation names its child run from the start, so watchers can follow it while it works.
  // A branching call starts several runs, each named in the tree instead (workflows/branching).
  const delegated =
    spec.type === 'sub_agent' && spec.name !== input.branching?.toolName
      ? {
          delegatedTo: {
            agentName: spec.name,
            workflowId: childWorkflowId(chain.chainId, spec.name, chain.stepCount + 1),
          },
        }
      : {};
  // The tool's audit level decides what of the arguments the chain keeps (domain/tools/tool-audit.ts).
  const recorded = auditedArguments(spec, args);
  return chain.toolCall(
    {
      toolType: spec.type,
      toolName: spec.name,
      arguments: recorded,
      correlationId: callId,
      ...sensitive,
      ...delegated,
      ...(routed !== undefined ? { routed } : {}),
    },
    toolStepVisibility(input, spec, recorded),
  );
}

/** Deterministic, readable, unique within the parent: the parent's id, the agent, and the step that called it. */
export function childWorkflowId(parentWorkflowId: string, agentName: string, stepNumber: number): string {
  return `${parentWorkflowId}/${agentName}-${stepNumber}`;
}
