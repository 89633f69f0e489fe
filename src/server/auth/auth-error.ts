import { ApiError } from '../api-error';

/** Why a request could not be authenticated; every one answers 401 with `WWW-Authenticate: Bearer`. */
export type AuthFailure = 'missing_token' | 'malformed_token' | 'invalid_token' | 'expired_token' | 'keys_unavailable';

/**
 * An authenticator's refusal: an `unauthenticated` ApiError (so the server answers 401 with its
 * message), with a `reason` a caller or a log can switch on. The message says what to do.
 */
export class AuthError extends ApiError {
  constructor(
    readonly reason: AuthFailure,
    message: string,
  ) {
    super('unauthenticated', message);
  }
}
