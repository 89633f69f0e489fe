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
  /** Refuse tokens without a tenant (multi-tenant servers: a tenant-less caller sees the tenant-less runs). Default false. */
  requireTenant?: boolean;
  /**
   * JOSE `typ` header values accepted, compared without case and without `application/`.
   * Default `['at+jwt']` (RFC 9068 access tokens); add `JWT` for issuers that sign access tokens
   * so (Keycloak, Entra ID). Tokens that are recognisably ID tokens are refused whatever this says.
   */
  tokenTypes?: readonly string[];
}

/** Asymmetric signatures only: never `none`, never HS* (a public key used as an HMAC secret would forge tokens). */
export const OIDC_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;
/** Clock skew tolerated on `exp`, `nbf` and `iat`. */
const CLOCK_TOLERANCE_S = 30;
const MAX_ROLES = 100;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const MAX_CLAIM_CHARS = 200;
export const DEFAULT_OIDC_TOKEN_TYPES = ['at+jwt'] as const;

/**
 * Authenticates `Authorization: Bearer <JWT>` against an OpenID Connect issuer: the signature
 * with the issuer's published keys (fetched and cached by jose, refetched for a new `kid`), the
 * issuer, the audience and the expiry. Fails closed: keys that cannot be fetched refuse the
 * request. Every refusal is an AuthError (401) whose message says what to do.
 */
export function createOidcAuthenticator(options: OidcAuthenticatorOptions): Authenticator {
  const {
    issuer,
    audience,
    rolesClaim = 'roles',
    tenantClaim = 'tenant',
    idClaim = 'sub',
    requireTenant = false,
  } = options;
  if (!issuer || !audience) throw new TypeError('createOidcAuthenticator needs an issuer and an audience.');
  const tokenTypes = new Set((options.tokenTypes ?? DEFAULT_OIDC_TOKEN_TYPES).map(mediaType));
  if (tokenTypes.size === 0 || tokenTypes.has(''))
    throw new TypeError('createOidcAuthenticator: tokenTypes needs at least one non-empty type, e.g. at+jwt.');
  const jwksUrl = new URL(options.jwksUrl);
  // Keys fetched over plain HTTP could be swapped in transit: only a loopback issuer (tests, a local IdP) may use it.
  if (jwksUrl.protocol !== 'https:' && !(jwksUrl.protocol === 'http:' && LOOPBACK.has(jwksUrl.hostname))) {
    throw new TypeError(`The JWKS URL ${jwksUrl.href} must use https (plain http only for localhost).`);
  }
  // jose is ESM only; loaded once, on the first request.
  const loaded = loadJose().then((jose) => ({
    jose,
    keys: jose.createRemoteJWKSet(jwksUrl, {
      timeoutDuration: 5_000,
      cooldownDuration: options.jwksCooldownMs ?? 30_000,
    }),
  }));
  loaded.catch(() => undefined); // awaited (and reported) per request; not an unhandled rejection meanwhile
  return {
    async authenticate(authorization) {
      const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
      if (!match)
        throw new AuthError(
          'missing_token',
          `Send "Authorization: Bearer <token>" with an access token from ${issuer}.`,
        );
      const { jose, keys } = await loaded;
      let payload: JWTPayload;
      let header: { typ?: unknown };
      try {
        ({ payload, protectedHeader: header } = await jose.jwtVerify(match[1]!, keys, {
          issuer,
          audience,
          algorithms: [...OIDC_ALGORITHMS],
          clockTolerance: CLOCK_TOLERANCE_S,
          requiredClaims: ['exp'],
        }));
      } catch (err) {
        throw refusal(jose.errors, err, { issuer, audience, jwksUrl: jwksUrl.href });
      }
      checkTokenType(header.typ, payload, tokenTypes);
      return identityOf(payload, { idClaim, rolesClaim, tenantClaim, requireTenant });
    },
    // Roles cannot be read again without a token: the identity holds as the token made it, until it expires.
    async current(identity) {
      if (identity.via !== 'oidc' || identity.expiresAt === undefined || identity.expiresAt <= Date.now())
        return undefined;
      return identity;
    },
  };
}

/** `application/at+jwt` and `AT+JWT` are the same type (RFC 7515 4.1.9). */
const mediaType = (typ: string): string =>
  typ
    .trim()
    .toLowerCase()
    .replace(/^application\//, '');

/** Claims only an ID token carries (OIDC Core 3.1.3.6, 3.3.2.11), or Keycloak's own marker of one. */
const ID_TOKEN_CLAIMS = ['at_hash', 'c_hash'] as const;

/**
 * An access token of an accepted type, and never an ID token: an ID token is issued to the client
 * that signed in, and with an API that shares the client's audience it would otherwise pass.
 */
function checkTokenType(typ: unknown, payload: JWTPayload, accepted: ReadonlySet<string>): void {
  const type = typeof typ === 'string' ? mediaType(typ) : undefined;
  if (type === undefined || !accepted.has(type)) {
    const shown = typeof typ === 'string' ? JSON.stringify(typ.slice(0, 40)) : 'no type';
    throw new AuthError(
      'invalid_token',
      `The token has ${shown} in its "typ" header; this server accepts ${[...accepted].join(', ')} (access tokens). Send an access token, not an ID token; if your issuer types access tokens "JWT", start serve with --oidc-token-types at+jwt,JWT.`,
    );
  }
  const idClaim = ID_TOKEN_CLAIMS.find((c) => Object.hasOwn(payload, c));
  const keycloakId = typeof payload.typ === 'string' && payload.typ.toLowerCase() === 'id';
  if (idClaim || keycloakId) {
    throw new AuthError(
      'invalid_token',
      `The token is an ID token (${idClaim ? `it has "${idClaim}"` : 'its "typ" claim is "ID"'}); send an access token for this API.`,
    );
  }
}

function identityOf(
  payload: JWTPayload,
  claims: { idClaim: string; rolesClaim: string; tenantClaim: string; requireTenant: boolean },
): Identity {
  const id = claimAt(payload, claims.idClaim);
  if (typeof id !== 'string' || !id || id.length > MAX_CLAIM_CHARS) {
    throw new AuthError(
      'invalid_token',
      `The token has no usable "${claims.idClaim}" claim (a string of 1 to ${MAX_CLAIM_CHARS} characters); configure the id claim your issuer sets.`,
    );
  }
  const tenant = tenantOf(claimAt(payload, claims.tenantClaim), claims);
  return {
    id,
    roles: rolesOf(claimAt(payload, claims.rolesClaim), claims.rolesClaim),
    ...(tenant ? { tenant } : {}),
    via: 'oidc',
    // jwtVerify required and checked `exp`.
    expiresAt: payload.exp! * 1000,
  };
}

/** A string of 1 to 200 characters, or absent. Present in any other shape refuses: dropping it would make the caller tenant-less, which sees the tenant-less runs. */
function tenantOf(value: unknown, claims: { tenantClaim: string; requireTenant: boolean }): string | undefined {
  if (value === undefined) {
    if (claims.requireTenant)
      throw new AuthError(
        'invalid_token',
        `The token has no "${claims.tenantClaim}" claim, and this server requires a tenant; ask your issuer to add it, or configure the tenant claim it sets (--oidc-tenant-claim).`,
      );
    return undefined;
  }
  if (typeof value !== 'string' || !value || value.length > MAX_CLAIM_CHARS) {
    throw new AuthError(
      'invalid_token',
      `The token's "${claims.tenantClaim}" claim is ${shapeOf(value)}, not one tenant (a string of 1 to ${MAX_CLAIM_CHARS} characters); map a single-valued claim to it at your issuer.`,
    );
  }
  return value;
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

/** An array of strings or a space-separated string, or absent (no roles). Present in any other shape refuses the token. */
function rolesOf(value: unknown, claim: string): string[] {
  if (value === undefined) return [];
  const list =
    typeof value === 'string'
      ? value.split(/\s+/).filter((r) => r.length > 0)
      : Array.isArray(value) && value.every((r) => typeof r === 'string')
        ? (value as string[])
        : undefined;
  if (!list || list.some((r) => r.length === 0 || r.length > MAX_CLAIM_CHARS) || list.length > MAX_ROLES) {
    throw new AuthError(
      'invalid_token',
      `The token's "${claim}" claim is ${shapeOf(value)}, not a list of roles (at most ${MAX_ROLES} strings of 1 to ${MAX_CLAIM_CHARS} characters, or one space-separated string).`,
    );
  }
  return [...new Set(list)];
}

/** What a claim is, in words, without echoing it (it may be long or hostile). */
function shapeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value))
    return `an array of ${value.length}${value.some((v) => typeof v !== 'string') ? ' with non-strings' : ''}`;
  if (typeof value === 'string')
    return value.length === 0 ? 'an empty string' : `a string of ${value.length} characters`;
  return `a ${typeof value}`;
}

/** jose's error, in words that say what to do; anything unrecognised is an invalid token, never an acceptance. */
function refusal(
  errors: Jose['errors'],
  err: unknown,
  config: { issuer: string; audience: string; jwksUrl: string },
): AuthError {
  if (err instanceof errors.JWTExpired) {
    const exp =
      typeof err.payload.exp === 'number' ? new Date(err.payload.exp * 1000).toISOString() : 'an unknown time';
    return new AuthError('expired_token', `The token expired at ${exp}; sign in again.`);
  }
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'iss')
      return new AuthError(
        'invalid_token',
        `The token was issued by ${JSON.stringify(err.payload.iss ?? null)}, not by ${config.issuer}; sign in with that issuer.`,
      );
    if (err.claim === 'aud')
      return new AuthError(
        'invalid_token',
        `The token is for audience ${JSON.stringify(err.payload.aud ?? null)}, not ${config.audience}; request a token for this API.`,
      );
    if (err.claim === 'nbf')
      return new AuthError('invalid_token', 'The token is not valid yet; check the clocks, or sign in again.');
    return new AuthError(
      'invalid_token',
      `The token's "${err.claim}" claim is ${err.reason === 'missing' ? 'missing' : 'not valid'}; sign in again.`,
    );
  }
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) {
    return new AuthError(
      'invalid_token',
      `The token's signing algorithm is not accepted; this server accepts ${OIDC_ALGORITHMS.join(', ')}.`,
    );
  }
  if (err instanceof errors.JWSSignatureVerificationFailed)
    return new AuthError('invalid_token', "The token's signature does not verify; sign in again.");
  if (err instanceof errors.JWKSNoMatchingKey)
    return new AuthError(
      'invalid_token',
      `No signing key at ${config.jwksUrl} matches the token's key id; sign in again (or wait a minute if the issuer just rotated its keys).`,
    );
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid)
    return new AuthError(
      'malformed_token',
      'The bearer token is not a well-formed signed JWT; send the access token your issuer gave you.',
    );
  if (
    err instanceof errors.JWKSTimeout ||
    err instanceof errors.JWKSInvalid ||
    err instanceof TypeError ||
    (err instanceof errors.JOSEError && err.code === 'ERR_JOSE_GENERIC')
  ) {
    return new AuthError(
      'keys_unavailable',
      `The server could not fetch the signing keys from ${config.jwksUrl}; try again later, or tell whoever runs the server.`,
    );
  }
  return new AuthError('invalid_token', 'The bearer token is not valid; sign in again.');
}
