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
  /** The stream ended before `message_stop` (EOF, reset) or sent an `error` event: retryable. */
  ModelStreamIncomplete: 'ModelStreamIncomplete',
  /** The reply could not be read (non-JSON body, unknown shape): retryable, it is usually a proxy. */
  ModelBadResponse: 'ModelBadResponse',
  ModelProviderMissing: 'ModelProviderMissing',
  ScriptExhausted: 'ScriptExhausted',
  ToolNotRegistered: 'ToolNotRegistered',
  ToolFailed: 'ToolFailed',
  InvalidAgentInput: 'InvalidAgentInput',
} as const;
export type FailureType = (typeof FailureType)[keyof typeof FailureType];
