import type { ReasoningStep, ToolType } from '../chain/chain';
import type { StepKind } from './visibility-policy';

/** What a view knows of a call by its correlation id (a result carries only the id). */
export interface CallKindFacts {
  toolType?: ToolType;
  toolName?: string;
}

/** The kind of a call of `toolType`: model calls are `llm` tools, sub-agents `sub_agent` ones. */
export function callKind(toolType: ToolType | undefined): StepKind {
  if (toolType === 'llm') return 'model_call';
  if (toolType === 'sub_agent') return 'sub_agent';
  return 'tool_call';
}

/**
 * The kind a policy's `steps` levels address: a tool_result's kind is its call's (a model's result
 * is a `model_call`), read from `facts`; a result whose call is unknown falls back to what the result
 * itself says (a model, a sub-agent run), else `tool_result`. Pure.
 */
export function stepKind(step: ReasoningStep, facts: ReadonlyMap<string, CallKindFacts>): StepKind {
  switch (step.type) {
    case 'thinking':
    case 'synthesis':
      return step.type;
    case 'tool_call':
      return callKind(step.toolCall.toolType);
    case 'tool_result': {
      const toolType = facts.get(step.toolResult.correlationId)?.toolType;
      if (toolType !== undefined)
        return toolType === 'llm' || toolType === 'sub_agent' ? callKind(toolType) : 'tool_result';
      if (step.model !== undefined) return 'model_call';
      return step.toolResult.subAgent ? 'sub_agent' : 'tool_result';
    }
  }
}
