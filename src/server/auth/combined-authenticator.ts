import { bearerToken, looksLikeJwt } from './bearer-token';
import type { Authenticator } from './identity';

/**
 * The server's one authenticator: a JWT-shaped token goes to OIDC when it is configured, any
 * other token to the token file. Token-file tokens (`tl_…`, base64url) never contain a dot, so
 * the two never compete for one token.
 */
export function createCombinedAuthenticator(parts: { tokens?: Authenticator; oidc?: Authenticator }): Authenticator {
  const { tokens, oidc } = parts;
  if (!tokens && !oidc) throw new Error('createCombinedAuthenticator needs a token file or an OIDC authenticator.');
  return {
    async authenticate(authorization) {
      const token = bearerToken(authorization);
      if (oidc && (looksLikeJwt(token) || !tokens)) return oidc.authenticate(authorization);
      return tokens!.authenticate(authorization);
    },
    async current(identity) {
      const from = identity.via === 'oidc' ? oidc : identity.via === 'token' ? tokens : undefined;
      return from?.current ? from.current(identity) : undefined;
    },
  };
}
