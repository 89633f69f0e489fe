import type { ReasoningStep, ToolCall, ToolResult } from '../../src/domain';

export type ToolCallStep = Extract<ReasoningStep, { type: 'tool_call' }>;
export type ToolResultStep = Extract<ReasoningStep, { type: 'tool_result' }>;
export type ThinkingStep = Extract<ReasoningStep, { type: 'thinking' }>;

const isModelCall = (s: ReasoningStep): s is ToolCallStep => s.type === 'tool_call' && s.toolCall.toolType === 'llm';

// One call, found by its correlation id (the model's tool_use id, or the run's own for model calls).

/** The tool_call step of the call with this id. */
export const callStep = (steps: readonly ReasoningStep[], callId: string): ToolCallStep | undefined =>
  steps.find((s): s is ToolCallStep => s.type === 'tool_call' && s.toolCall.correlationId === callId);

/** The tool_result step answering the call with this id. */
export const resultStep = (steps: readonly ReasoningStep[], callId: string): ToolResultStep | undefined =>
  steps.find((s): s is ToolResultStep => s.type === 'tool_result' && s.toolResult.correlationId === callId);

/** The ToolResult (not its step) answering the call with this id. */
export const toolResultOf = (steps: readonly ReasoningStep[], callId: string): ToolResult | undefined =>
  resultStep(steps, callId)?.toolResult;

// Calls of one tool, found by the tool's name.

/** The steps of every call of the tool and of the results that answer them, in chain order. */
export function stepsOfTool(steps: readonly ReasoningStep[], toolName: string): ReasoningStep[] {
  const ids = new Set(
    steps.flatMap((s) =>
      s.type === 'tool_call' && s.toolCall.toolName === toolName ? [s.toolCall.correlationId] : [],
    ),
  );
  return steps.filter(
    (s) =>
      (s.type === 'tool_call' && ids.has(s.toolCall.correlationId)) ||
      (s.type === 'tool_result' && ids.has(s.toolResult.correlationId)),
  );
}

/** The tool's first call step. */
export const callStepOfTool = (steps: readonly ReasoningStep[], toolName: string): ToolCallStep | undefined =>
  stepsOfTool(steps, toolName).find((s): s is ToolCallStep => s.type === 'tool_call');

/** The first result step answering a call of the tool (with one call: that call's). */
export const resultStepOfTool = (steps: readonly ReasoningStep[], toolName: string): ToolResultStep | undefined =>
  stepsOfTool(steps, toolName).find((s): s is ToolResultStep => s.type === 'tool_result');

/** The ToolResult (not its step) of resultStepOfTool. */
export const toolResultOfTool = (steps: readonly ReasoningStep[], toolName: string): ToolResult | undefined =>
  resultStepOfTool(steps, toolName)?.toolResult;

// Lists, in chain order.

/** The ToolCall of every model call. */
export const llmCalls = (steps: readonly ReasoningStep[]): ToolCall[] =>
  steps.filter(isModelCall).map((s) => s.toolCall);

/** The call steps of tools, leaving out model calls. */
export const toolCallSteps = (steps: readonly ReasoningStep[]): ToolCallStep[] =>
  steps.filter((s): s is ToolCallStep => s.type === 'tool_call' && !isModelCall(s));

/** The ToolResults of tools, leaving out those of model calls. */
export const toolResults = (steps: readonly ReasoningStep[]): ToolResult[] =>
  steps.flatMap((s) => (s.type === 'tool_result' && s.model === undefined ? [s.toolResult] : []));

/** Call steps that no result step answers. */
export function openCallSteps(steps: readonly ReasoningStep[]): ToolCallStep[] {
  const answered = new Set(steps.flatMap((s) => (s.type === 'tool_result' ? [s.toolResult.correlationId] : [])));
  return steps.filter((s): s is ToolCallStep => s.type === 'tool_call' && !answered.has(s.toolCall.correlationId));
}

/** The text of every thinking step. */
export const thoughts = (steps: readonly ReasoningStep[]): string[] =>
  steps.flatMap((s) => (s.type === 'thinking' ? [s.thought] : []));

/** The thinking steps written for one purpose (a plan, a reflection, a blocked delegation). */
export const thinkingSteps = (steps: readonly ReasoningStep[], purpose: ThinkingStep['purpose']): ThinkingStep[] =>
  steps.filter((s): s is ThinkingStep => s.type === 'thinking' && s.purpose === purpose);

// A chain's outline, one string a step, for comparing runs or checking order.

/** `call:<toolType>:<toolName>`, `result:<success>`, or the step's type. */
export const stepShape = (steps: readonly ReasoningStep[]): string[] =>
  steps.map((s) =>
    s.type === 'tool_call'
      ? `call:${s.toolCall.toolType}:${s.toolCall.toolName}`
      : s.type === 'tool_result'
        ? `result:${s.toolResult.success}`
        : s.type,
  );

/** `tool_call:<toolName>`, or the step's type. */
export const stepTypesWithToolNames = (steps: readonly ReasoningStep[]): string[] =>
  steps.map((s) => (s.type === 'tool_call' ? `${s.type}:${s.toolCall.toolName}` : s.type));

/** `tool_call:<toolType>`, `tool_result:llm` or `tool_result:tool`, or the step's type. */
export const stepTypesWithSources = (steps: readonly ReasoningStep[]): string[] =>
  steps.map((s) =>
    s.type === 'tool_call'
      ? `${s.type}:${s.toolCall.toolType}`
      : s.type === 'tool_result'
        ? `${s.type}:${s.model ? 'llm' : 'tool'}`
        : s.type,
  );

/** The fixed time of the steps `stepOf` makes. */
export const STEP_TIME = '2026-01-01T00:00:00.000Z';

/** A step for render tests: number `n` (id `s<n>`) of iteration 1, fully visible, with `body`'s type and fields. */
export const stepOf = (n: number, body: Record<string, unknown>): ReasoningStep =>
  ({
    stepId: `s${n}`,
    stepNumber: n,
    timestamp: STEP_TIME,
    iteration: 1,
    visibility: { level: 'full' },
    ...body,
  }) as ReasoningStep;
