/**
 * Span and metric attribute names: the OpenTelemetry GenAI semantic conventions, then
 * Thoughtline's own under `thoughtline.*`. Pure constants, imported on both sides of the sandbox.
 * By default only names, ids, counts, models, tokens, cost, durations and outcomes are recorded:
 * never a prompt, a message, a tool's arguments or its result. Content capture (opt-in) adds the
 * `thoughtline.step.*` attributes, each step as the visibility policy's telemetry view shows it.
 */
export const Attr = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  tokenType: 'gen_ai.token.type',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  agentName: 'gen_ai.agent.name',
  errorType: 'error.type',

  workflowId: 'thoughtline.workflow.id',
  runKind: 'thoughtline.run.kind',
  stepNumber: 'thoughtline.step.number',
  iterations: 'thoughtline.iterations',
  costUsd: 'thoughtline.cost_usd',
  cacheReadTokens: 'thoughtline.usage.cache_read_tokens',
  cacheWriteTokens: 'thoughtline.usage.cache_write_tokens',
  terminationReason: 'thoughtline.termination_reason',
  activityType: 'thoughtline.activity.type',
  attempt: 'thoughtline.activity.attempt',
  toolTruncated: 'thoughtline.tool.truncated',
  toolNeedsInput: 'thoughtline.tool.needs_input',
  messageName: 'thoughtline.message.name',
  callId: 'thoughtline.call.id',
  approved: 'thoughtline.approval.approved',
  tenant: 'thoughtline.tenant',

  stepType: 'thoughtline.step.type',
  stepKind: 'thoughtline.step.kind',
  stepContent: 'thoughtline.step.content',
  stepContentTruncated: 'thoughtline.step.content_truncated',
  stepContentWithheld: 'thoughtline.step.content_withheld',
  view: 'thoughtline.view',
} as const;

/** `gen_ai.operation.name` values. */
export const Operation = { chat: 'chat', executeTool: 'execute_tool', invokeAgent: 'invoke_agent' } as const;

/** The activity header a run's workflow interceptor sets so the activity side knows the agent. */
export const AGENT_HEADER = 'thoughtline-agent';

/** The activity header naming the run's tenant (the caller's), set only for runs that have one. */
export const TENANT_HEADER = 'thoughtline-tenant';
