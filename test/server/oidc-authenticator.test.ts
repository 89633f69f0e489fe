import http from 'node:http';
import type { webcrypto } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError } from '../../src/server/auth/auth-error';
import { createOidcAuthenticator, type OidcAuthenticatorOptions } from '../../src/server/auth/oidc-authenticator';

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });
type SigningKey = { kid: string; alg: string; privateKey: webcrypto.CryptoKey; jwk: Record<string, unknown> };

const issuer = 'https://id.example.test/realms/acme';
const audience = 'thoughtline-api';
let jose: Jose;
/** The JWKS the server publishes; tests swap it to rotate keys. */
let published: { keys: Array<Record<string, unknown>> } = { keys: [] };
let fetches = 0;
let failWith: number | undefined;
let server: http.Server;
let jwksUrl: string;
let rsa: SigningKey;

async function signingKey(kid: string, alg: string): Promise<SigningKey> {
  const { publicKey, privateKey } = await jose.generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, jwk: { ...(await jose.exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

function token(
  key: SigningKey,
  claims: Record<string, unknown> = {},
  options: { iss?: string; aud?: string; exp?: number; typ?: string | null } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const typ = options.typ === undefined ? 'at+jwt' : options.typ;
  return new jose.SignJWT({ roles: ['ops', 'auditor'], tenant: 'acme', ...claims })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, ...(typ === null ? {} : { typ }) })
    .setSubject('alice')
    .setIssuer(options.iss ?? issuer)
    .setAudience(options.aud ?? audience)
    .setIssuedAt(now)
    .setExpirationTime(options.exp ?? now + 300)
    .sign(key.privateKey);
}

const authenticator = (extra: Partial<OidcAuthenticatorOptions> = {}) =>
  createOidcAuthenticator({ issuer, audience, jwksUrl, jwksCooldownMs: 0, ...extra });
const ALG_REFUSED = "The token's signing algorithm is not accepted; this server accepts RS256, PS256, ES256, EdDSA.";
const bearer = (t: string) => `Bearer ${t}`;

/** The AuthError an authentication fails with (failing the test if it succeeds or throws anything else). */
async function refused(authenticate: Promise<unknown>): Promise<AuthError> {
  const err = await authenticate.then(
    (identity) => new Error(`accepted as ${JSON.stringify(identity)}`),
    (e: unknown) => e,
  );
  if (!(err instanceof AuthError)) throw err;
  expect(err.status).toBe(401);
  return err;
}

beforeAll(async () => {
  jose = await import('jose');
  server = http.createServer((req, res) => {
    fetches++;
    if (req.url !== '/jwks' || failWith) {
      res.writeHead(failWith ?? 404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(published));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
  rsa = await signingKey('rsa-1', 'RS256');
  published = { keys: [rsa.jwk] };
});

afterAll(async () => new Promise<void>((r) => server.close(() => r())));

describe('createOidcAuthenticator', () => {
  it('accepts a valid token: id, roles and tenant come from its claims, and its expiry', async () => {
    const auth = authenticator();
    const identity = await auth.authenticate(bearer(await token(rsa)));
    expect(identity).toEqual({
      id: 'alice',
      roles: ['ops', 'auditor'],
      tenant: 'acme',
      via: 'oidc',
      expiresAt: expect.any(Number),
    });
    expect(identity.expiresAt).toBeGreaterThan(Date.now());
    // A push subscription lasts as long as the token that made it: the roles cannot be read again.
    await expect(auth.current!(identity)).resolves.toEqual(identity);
    await expect(auth.current!({ ...identity, expiresAt: Date.now() - 1 })).resolves.toBeUndefined();
  });

  it('accepts each allowed asymmetric algorithm (ES256, PS256, EdDSA)', async () => {
    const others = [
      await signingKey('ec-1', 'ES256'),
      await signingKey('ps-1', 'PS256'),
      await signingKey('ed-1', 'EdDSA'),
    ];
    published = { keys: [rsa.jwk, ...others.map((k) => k.jwk)] };
    for (const key of others)
      await expect(authenticator().authenticate(bearer(await token(key)))).resolves.toMatchObject({ id: 'alice' });
    published = { keys: [rsa.jwk] };
  });

  it('refuses a missing or non-bearer header, saying what to send', async () => {
    for (const header of [undefined, '', 'Basic YWxpY2U6cHc=', 'Bearer']) {
      const err = await refused(authenticator().authenticate(header));
      expect(err.reason).toBe('missing_token');
      expect(err.message).toBe(`Send "Authorization: Bearer <token>" with an access token from ${issuer}.`);
    }
  });

  it('refuses an expired token, saying when it expired', async () => {
    const exp = Math.floor(Date.now() / 1000) - 120;
    const err = await refused(authenticator().authenticate(bearer(await token(rsa, {}, { exp }))));
    expect(err.reason).toBe('expired_token');
    expect(err.message).toBe(`The token expired at ${new Date(exp * 1000).toISOString()}; sign in again.`);
  });

  it('refuses a token from another issuer, or for another audience', async () => {
    const wrongIssuer = await refused(
      authenticator().authenticate(bearer(await token(rsa, {}, { iss: 'https://evil.example.test' }))),
    );
    expect(wrongIssuer.message).toBe(
      `The token was issued by "https://evil.example.test", not by ${issuer}; sign in with that issuer.`,
    );
    const wrongAudience = await refused(
      authenticator().authenticate(bearer(await token(rsa, {}, { aud: 'another-api' }))),
    );
    expect(wrongAudience.message).toBe(
      'The token is for audience "another-api", not thoughtline-api; request a token for this API.',
    );
    expect([wrongIssuer.reason, wrongAudience.reason]).toEqual(['invalid_token', 'invalid_token']);
  });

  it('refuses an unsigned token (alg none)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const unsigned = new jose.UnsecuredJWT({ roles: ['admin'] })
      .setSubject('mallory')
      .setIssuer(issuer)
      .setAudience(audience)
      .setExpirationTime(now + 300)
      .encode();
    expect(unsigned.endsWith('.')).toBe(true);
    const err = await refused(authenticator().authenticate(bearer(unsigned)));
    expect(err.message).toBe(ALG_REFUSED);
  });

  it('refuses HS256 signed with the public key’s bytes (key confusion)', async () => {
    const publicKey = await jose.importJWK(rsa.jwk, 'RS256');
    const pem = await jose.exportSPKI(publicKey as webcrypto.CryptoKey);
    for (const secret of [new TextEncoder().encode(pem), new TextEncoder().encode(JSON.stringify(rsa.jwk))]) {
      const forged = await new jose.SignJWT({ roles: ['admin'] })
        .setProtectedHeader({ alg: 'HS256', kid: rsa.kid })
        .setSubject('mallory')
        .setIssuer(issuer)
        .setAudience(audience)
        .setExpirationTime('5m')
        .sign(secret);
      const err = await refused(authenticator().authenticate(bearer(forged)));
      expect(err.message).toBe(ALG_REFUSED);
    }
  });

  it('refuses a token whose signature was tampered with', async () => {
    const [h, p, s] = (await token(rsa)).split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const elevated = Buffer.from(JSON.stringify({ ...claims, roles: ['admin'] })).toString('base64url');
    const err = await refused(authenticator().authenticate(bearer(`${h}.${elevated}.${s}`)));
    expect(err.message).toBe("The token's signature does not verify; sign in again.");
  });

  it('fetches the JWKS again when the issuer rotates to a new key id', async () => {
    const auth = authenticator();
    await expect(auth.authenticate(bearer(await token(rsa)))).resolves.toMatchObject({ id: 'alice' });
    const before = fetches;
    const rotated = await signingKey('rsa-2', 'RS256');
    published = { keys: [rotated.jwk] };
    await expect(auth.authenticate(bearer(await token(rotated)))).resolves.toMatchObject({ id: 'alice' });
    expect(fetches).toBe(before + 1);
    // The old key is gone from the JWKS: its tokens no longer pass once the set is refetched.
    const err = await refused(auth.authenticate(bearer(await token(rsa))));
    expect(err.message).toMatch(/^No signing key at .* matches the token's key id/);
    published = { keys: [rsa.jwk] };
  });

  it('reads roles from a dotted path (Keycloak), a namespaced claim (Auth0) and a space-separated string; absent roles are none', async () => {
    const keycloak = authenticator({ rolesClaim: 'realm_access.roles', tenantClaim: 'org.id' });
    const kc = await token(rsa, {
      roles: undefined,
      realm_access: { roles: ['finance', 'ops'] },
      org: { id: 'acme-eu' },
    });
    await expect(keycloak.authenticate(bearer(kc))).resolves.toEqual({
      id: 'alice',
      roles: ['finance', 'ops'],
      tenant: 'acme-eu',
      via: 'oidc',
      expiresAt: expect.any(Number),
    });

    const auth0 = authenticator({ rolesClaim: 'https://thoughtline.example/roles' });
    await expect(
      auth0.authenticate(bearer(await token(rsa, { 'https://thoughtline.example/roles': ['approver'] }))),
    ).resolves.toMatchObject({ roles: ['approver'] });

    const scopes = authenticator({ rolesClaim: 'scp' });
    await expect(
      scopes.authenticate(bearer(await token(rsa, { scp: 'runs.read  runs.approve' }))),
    ).resolves.toMatchObject({ roles: ['runs.read', 'runs.approve'] });
    await expect(authenticator().authenticate(bearer(await token(rsa, { roles: undefined })))).resolves.toMatchObject({
      roles: [],
    });
  });

  it('refuses to fetch keys over plain http from anywhere but loopback, and needs an issuer and an audience', () => {
    expect(() => createOidcAuthenticator({ issuer, audience, jwksUrl: 'http://id.example.test/jwks' })).toThrow(
      'The JWKS URL http://id.example.test/jwks must use https (plain http only for localhost).',
    );
    expect(() => createOidcAuthenticator({ issuer, audience, jwksUrl: 'file:///etc/jwks.json' })).toThrow(
      /must use https/,
    );
    expect(() => createOidcAuthenticator({ issuer: '', audience, jwksUrl })).toThrow(/needs an issuer and an audience/);
    expect(() => createOidcAuthenticator({ issuer, audience, jwksUrl: 'https://id.example.test/jwks' })).not.toThrow();
  });

  it('refuses a token without the configured id claim', async () => {
    const err = await refused(authenticator({ idClaim: 'email' }).authenticate(bearer(await token(rsa))));
    expect(err.message).toMatch(/^The token has no usable "email" claim/);
  });

  it('refuses (never accepts) when the signing keys cannot be fetched', async () => {
    failWith = 500;
    try {
      const err = await refused(authenticator().authenticate(bearer(await token(rsa))));
      expect(err.reason).toBe('keys_unavailable');
      expect(err.message).toBe(
        `The server could not fetch the signing keys from ${jwksUrl}; try again later, or tell whoever runs the server.`,
      );
    } finally {
      failWith = undefined;
    }
    const closed = createOidcAuthenticator({ issuer, audience, jwksUrl: 'http://127.0.0.1:1/jwks' });
    expect((await refused(closed.authenticate(bearer(await token(rsa))))).reason).toBe('keys_unavailable');
  });
});

describe('OIDC identity claims present in an unusable shape refuse the token (issue 43)', () => {
  // What Keycloak's multivalued mappers and Entra's group claims send, and other shapes a tenant must not have.
  it.each([
    ['an array', ['acme', 'globex'], 'an array of 2'],
    ['a one-element array', ['acme'], 'an array of 1'],
    ['a number', 42, 'a number'],
    ['an object', { id: 'acme' }, 'a object'],
    ['null', null, 'null'],
    ['an empty string', '', 'an empty string'],
    ['201 characters', 't'.repeat(201), 'a string of 201 characters'],
  ])('a tenant that is %s', async (_name, tenant, shape) => {
    const err = await refused(authenticator().authenticate(bearer(await token(rsa, { tenant }))));
    expect(err.reason).toBe('invalid_token');
    expect(err.message).toBe(
      `The token's "tenant" claim is ${shape}, not one tenant (a string of 1 to 200 characters); map a single-valued claim to it at your issuer.`,
    );
  });

  it('a tenant of exactly 200 characters is accepted; an absent one gives no tenant unless the server requires one', async () => {
    await expect(
      authenticator().authenticate(bearer(await token(rsa, { tenant: 't'.repeat(200) }))),
    ).resolves.toMatchObject({ tenant: 't'.repeat(200) });
    const none = await authenticator().authenticate(bearer(await token(rsa, { tenant: undefined })));
    expect(none).not.toHaveProperty('tenant');
    const err = await refused(
      authenticator({ requireTenant: true }).authenticate(bearer(await token(rsa, { tenant: undefined }))),
    );
    expect(err.message).toMatch(/^The token has no "tenant" claim, and this server requires a tenant/);
    await expect(authenticator({ requireTenant: true }).authenticate(bearer(await token(rsa)))).resolves.toMatchObject({
      tenant: 'acme',
    });
  });

  it.each([
    ['a number', 42],
    ['an object', { admin: true }],
    ['a mixed array', ['ops', 7]],
    ['null', null],
    ['an array with an empty role', ['ops', '']],
    ['an array with a role of 201 characters', ['r'.repeat(201)]],
    ['101 roles', Array.from({ length: 101 }, (_, i) => `role-${i}`)],
  ])('roles that are %s', async (_name, roles) => {
    const err = await refused(authenticator().authenticate(bearer(await token(rsa, { roles }))));
    expect(err.message).toMatch(/^The token's "roles" claim is .*, not a list of roles/);
  });
});

describe('OIDC token type: access tokens only (issue 43)', () => {
  it('by default accepts typ at+jwt (any case, with or without application/) and refuses JWT, none and other types', async () => {
    for (const typ of ['at+jwt', 'AT+JWT', 'application/at+jwt']) {
      await expect(authenticator().authenticate(bearer(await token(rsa, {}, { typ }))), typ).resolves.toMatchObject({
        id: 'alice',
      });
    }
    for (const typ of ['JWT', 'id_token+jwt', 'logout+jwt', null]) {
      const err = await refused(authenticator().authenticate(bearer(await token(rsa, {}, { typ }))));
      expect(err.message, String(typ)).toMatch(
        /in its "typ" header; this server accepts at\+jwt \(access tokens\)\. Send an access token, not an ID token/,
      );
    }
  });

  it('tokenTypes opens JWT for issuers that type access tokens so, and still refuses what is recognisably an ID token', async () => {
    const keycloak = authenticator({ tokenTypes: ['at+jwt', 'JWT'] });
    await expect(
      keycloak.authenticate(bearer(await token(rsa, { typ: 'Bearer' }, { typ: 'JWT' }))),
    ).resolves.toMatchObject({ id: 'alice' });
    const idTokens: Array<[Record<string, unknown>, string]> = [
      [{ typ: 'ID', nonce: 'n-1' }, 'its "typ" claim is "ID"'],
      [{ at_hash: 'x3Q1kN9b2Jc4', nonce: 'n-1' }, 'it has "at_hash"'],
      [{ c_hash: 'LDktKdoQak3P' }, 'it has "c_hash"'],
    ];
    for (const [claims, why] of idTokens) {
      const err = await refused(keycloak.authenticate(bearer(await token(rsa, claims, { typ: 'JWT' }))));
      expect(err.message).toBe(`The token is an ID token (${why}); send an access token for this API.`);
    }
    expect(() => authenticator({ tokenTypes: [] })).toThrow(/tokenTypes needs at least one non-empty type/);
  });
});
