/**
 * Stable `ApplicationFailure.type` values. Activities classify errors into these once, at the
 * boundary; the workflow decides on the type, never on `instanceof`.
 */
export const FailureType = {
  ModelRateLimited: 'ModelRateLimited',
  ModelOverloaded: 'ModelOverloaded',
  ModelServerError: 'ModelServerError',
  ModelConnectionError: 'ModelConnectionError',
  ModelTimeout: 'ModelTimeout',
  ModelConflict: 'ModelConflict',
  ModelBadRequest: 'ModelBadRequest',
  ModelAuthentication: 'ModelAuthentication',
  ModelPermissionDenied: 'ModelPermissionDenied',
  ModelNotFound: 'ModelNotFound',
  ModelRequestTooLarge: 'ModelRequestTooLarge',
  /** The stream ended before its last event (EOF, reset) or sent an error of unknown type: retryable. */
  ModelStreamIncomplete: 'ModelStreamIncomplete',
  /** A 200 reply that could not be read (not JSON, cut, unknown shape): retryable, usually a proxy. */
  ModelBadResponse: 'ModelBadResponse',
  ModelProviderMissing: 'ModelProviderMissing',
  /** The model began repeating the same text and was stopped early (the local model): greedy decoding loops the same way again, so non-retryable. */
  ModelRepeating: 'ModelRepeating',
  /** The call sets a sampling setting (temperature, topP, topK, seed) its provider or model cannot honour: non-retryable. */
  ModelSettingUnsupported: 'ModelSettingUnsupported',
  /** The model has no tool calling (the server said so): the run goes on in text ReAct. Non-retryable. */
  ModelToolsUnsupported: 'ModelToolsUnsupported',
  /** The worker's model registry does not allow this provider/model pair (governance). */
  ModelNotAllowed: 'ModelNotAllowed',
  /** A model call by reference whose conversation the worker could not rebuild (see resolve-conversation.ts): retryable. */
  ConversationUnavailable: 'ConversationUnavailable',
  ScriptExhausted: 'ScriptExhausted',
  ToolNotRegistered: 'ToolNotRegistered',
  ToolFailed: 'ToolFailed',
  /** The tool threw a `ToolError` with `retryable: false`: a deliberate, final refusal; never retried. */
  ToolRefused: 'ToolRefused',
  /**
   * The tool ran, but what it returned could not be converted, serialised, cut or redacted (a
   * result nested too deep): non-retryable, so a side-effecting tool never runs twice for it.
   */
  ToolResultUnusable: 'ToolResultUnusable',
  InvalidAgentInput: 'InvalidAgentInput',
  /** An evaluation's input did not parse (evaluationWorkflow): non-retryable, nothing started. */
  InvalidEvaluationInput: 'InvalidEvaluationInput',
  /** The tenant quota workflow refused a malformed message (its validator). */
  TenantQuotaRequestRejected: 'TenantQuotaRequestRejected',
  /** A tenant quota workflow was handed state it cannot read. */
  InvalidTenantQuotaState: 'InvalidTenantQuotaState',
  /** A remote A2A agent this worker may not reach: no allow-list, not on it, or a non-public address. Non-retryable. */
  RemoteAgentRefused: 'RemoteAgentRefused',
  /** A remote A2A agent's host could not be reached, or answered 5xx/429: retryable. */
  RemoteAgentUnreachable: 'RemoteAgentUnreachable',
  /** A remote A2A agent answered 401 or 403: the worker's token is missing or wrong. Non-retryable. */
  RemoteAgentUnauthorized: 'RemoteAgentUnauthorized',
  /** A remote A2A agent's card could not be read, or it offers no JSON-RPC interface. Non-retryable. */
  RemoteAgentBadCard: 'RemoteAgentBadCard',
  /** A remote A2A agent refused a request (a JSON-RPC error, another 4xx, an unreadable answer). Non-retryable. */
  RemoteAgentFailed: 'RemoteAgentFailed',
  /** An update's handler could not read or apply its payload: the update fails, the run goes on. */
  MalformedMessage: 'MalformedMessage',
} as const;
export type FailureType = (typeof FailureType)[keyof typeof FailureType];
