import type { JWTPayload } from 'jose' with { 'resolution-mode': 'import' };
import { AuthError } from './auth-error';
import type { Authenticator, Identity } from './identity';

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });
const loadJose = (): Promise<Jose> => import('jose');

export interface OidcAuthenticatorOptions {
  /** The `iss` every token must carry, e.g. `https://id.example.com/realms/acme`. */
  issuer: string;
  /** The `aud` every token must include: the API's client id or identifier. */
  audience: string;
  /** Where the issuer publishes its signing keys (its discovery document's `jwks_uri`). */
  jwksUrl: string;
  /** The claim holding the roles, a dotted path allowed (`realm_access.roles`); an array of strings or a space-separated string. Default `roles`. */
  rolesClaim?: string;
  /** The claim holding the tenant, a dotted path allowed. Default `tenant`. */
  tenantClaim?: string;
  /** The claim holding the person's id. Default `sub`. */
  idClaim?: string;
  /** After fetching the keys, no refetch for this long, even for an unknown `kid` (protects the issuer). Default 30 s. */
  jwksCooldownMs?: number;
}

/** Asymmetric signatures only: never `none`, never HS* (a public key used as an HMAC secret would forge tokens). */
export const OIDC_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;
/** Clock skew tolerated on `exp`, `nbf` and `iat`. */
const CLOCK_TOLERANCE_S = 30;
const MAX_ROLES = 100;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const MAX_CLAIM_CHARS = 200;

/**
 * Authenticates `Authorization: Bearer <JWT>` against an OpenID Connect issuer: the signature
 * with the issuer's published keys (fetched and cached by jose, refetched for a new `kid`), the
 * issuer, the audience and the expiry. Fails closed: keys that cannot be fetched refuse the
 * request. Every refusal is an AuthError (401) whose message says what to do.
 */
export function createOidcAuthenticator(options: OidcAuthenticatorOptions): Authenticator {
  const { issuer, audience, rolesClaim = 'roles', tenantClaim = 'tenant', idClaim = 'sub' } = options;
  if (!issuer || !audience) throw new TypeError('createOidcAuthenticator needs an issuer and an audience.');
  const jwksUrl = new URL(options.jwksUrl);
  // Keys fetched over plain HTTP could be swapped in transit: only a loopback issuer (tests, a local IdP) may use it.
  if (jwksUrl.protocol !== 'https:' && !(jwksUrl.protocol === 'http:' && LOOPBACK.has(jwksUrl.hostname))) {
    throw new TypeError(`The JWKS URL ${jwksUrl.href} must use https (plain http only for localhost).`);
  }
  // jose is ESM only; loaded once, on the first request.
  const loaded = loadJose().then((jose) => ({ jose, keys: jose.createRemoteJWKSet(jwksUrl, { timeoutDuration: 5_000, cooldownDuration: options.jwksCooldownMs ?? 30_000 }) }));
  loaded.catch(() => undefined); // awaited (and reported) per request; not an unhandled rejection meanwhile
  return {
    async authenticate(authorization) {
      const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
      if (!match) throw new AuthError('missing_token', `Send "Authorization: Bearer <token>" with an access token from ${issuer}.`);
      const { jose, keys } = await loaded;
      let payload: JWTPayload;
      try {
        ({ payload } = await jose.jwtVerify(match[1]!, keys, { issuer, audience, algorithms: [...OIDC_ALGORITHMS], clockTolerance: CLOCK_TOLERANCE_S, requiredClaims: ['exp'] }));
      } catch (err) {
        throw refusal(jose.errors, err, { issuer, audience, jwksUrl: jwksUrl.href });
      }
      return identityOf(payload, { idClaim, rolesClaim, tenantClaim });
    },
  };
}

function identityOf(payload: JWTPayload, claims: { idClaim: string; rolesClaim: string; tenantClaim: string }): Identity {
  const id = claimAt(payload, claims.idClaim);
  if (typeof id !== 'string' || !id || id.length > MAX_CLAIM_CHARS) {
    throw new AuthError('invalid_token', `The token has no usable "${claims.idClaim}" claim (a string of 1 to ${MAX_CLAIM_CHARS} characters); configure the id claim your issuer sets.`);
  }
  const tenant = claimAt(payload, claims.tenantClaim);
  return {
    id,
    roles: rolesOf(claimAt(payload, claims.rolesClaim)),
    ...(typeof tenant === 'string' && tenant && tenant.length <= MAX_CLAIM_CHARS ? { tenant } : {}),
    via: 'oidc',
  };
}

/** The claim named exactly `path` if the token has one (Auth0's `https://example.com/roles`), else the dotted path into nested objects. */
function claimAt(payload: JWTPayload, path: string): unknown {
  if (Object.hasOwn(payload, path)) return payload[path];
  let at: unknown = payload;
  for (const part of path.split('.')) {
    if (at === null || typeof at !== 'object' || Array.isArray(at) || !Object.hasOwn(at, part)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** An array of strings or a space-separated string; anything else (numbers, objects, mixed arrays) gives no roles. */
function rolesOf(value: unknown): string[] {
  const list = typeof value === 'string' ? value.split(/\s+/) : Array.isArray(value) && value.every((r) => typeof r === 'string') ? (value as string[]) : [];
  return [...new Set(list.filter((r) => r.length > 0 && r.length <= MAX_CLAIM_CHARS))].slice(0, MAX_ROLES);
}

/** jose's error, in words that say what to do; anything unrecognised is an invalid token, never an acceptance. */
function refusal(errors: Jose['errors'], err: unknown, config: { issuer: string; audience: string; jwksUrl: string }): AuthError {
  if (err instanceof errors.JWTExpired) {
    const exp = typeof err.payload.exp === 'number' ? new Date(err.payload.exp * 1000).toISOString() : 'an unknown time';
    return new AuthError('expired_token', `The token expired at ${exp}; sign in again.`);
  }
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'iss') return new AuthError('invalid_token', `The token was issued by ${JSON.stringify(err.payload.iss ?? null)}, not by ${config.issuer}; sign in with that issuer.`);
    if (err.claim === 'aud') return new AuthError('invalid_token', `The token is for audience ${JSON.stringify(err.payload.aud ?? null)}, not ${config.audience}; request a token for this API.`);
    if (err.claim === 'nbf') return new AuthError('invalid_token', 'The token is not valid yet; check the clocks, or sign in again.');
    return new AuthError('invalid_token', `The token's "${err.claim}" claim is ${err.reason === 'missing' ? 'missing' : 'not valid'}; sign in again.`);
  }
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) {
    return new AuthError('invalid_token', `The token's signing algorithm is not accepted; this server accepts ${OIDC_ALGORITHMS.join(', ')}.`);
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return new AuthError('invalid_token', 'The token\'s signature does not verify; sign in again.');
  if (err instanceof errors.JWKSNoMatchingKey) return new AuthError('invalid_token', `No signing key at ${config.jwksUrl} matches the token's key id; sign in again (or wait a minute if the issuer just rotated its keys).`);
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return new AuthError('malformed_token', 'The bearer token is not a well-formed signed JWT; send the access token your issuer gave you.');
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid || err instanceof TypeError || (err instanceof errors.JOSEError && err.code === 'ERR_JOSE_GENERIC')) {
    return new AuthError('keys_unavailable', `The server could not fetch the signing keys from ${config.jwksUrl}; try again later, or tell whoever runs the server.`);
  }
  return new AuthError('invalid_token', 'The bearer token is not valid; sign in again.');
}
