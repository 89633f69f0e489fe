/**
 * A Temporal frontend refused this client (TLS, a client certificate, an API key) or spoke
 * another protocol than the one configured. The message says which TEMPORAL_* variable to set;
 * `cause` holds the SDK's own error. Never holds a secret's value.
 */
export class TemporalConnectionError extends Error {
  override readonly name = 'TemporalConnectionError';

  constructor(
    readonly address: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
