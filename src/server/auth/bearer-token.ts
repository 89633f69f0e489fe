import { ApiError } from '../api-error';

/** Tokens longer than this are refused before any work: no real token comes near it. */
const MAX_TOKEN_CHARS = 8_192;

/** The token of an `Authorization: Bearer <token>` header; `unauthenticated` when there is none. */
export function bearerToken(authorization: string | undefined): string {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match)
    throw new ApiError(
      'unauthenticated',
      'Send "Authorization: Bearer <token>"; ask whoever runs the server for a token (thoughtline token).',
    );
  if (match[1]!.length > MAX_TOKEN_CHARS) throw new ApiError('unauthenticated', 'The bearer token is not valid.');
  return match[1]!;
}

/** A token in JWT's compact form (three base64url parts), which only an OIDC authenticator can check. */
export const looksLikeJwt = (token: string): boolean => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
