import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/server/api-error';
import { createCombinedAuthenticator } from '../../src/server/auth/combined-authenticator';
import type { Authenticator } from '../../src/server/auth/identity';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { generateToken, tokenSha256 } from '../../src/server/auth/token-hash';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-tokens-'));
  file = path.join(dir, 'tokens.json');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (tokens: unknown[], mtime?: Date): void => {
  fs.writeFileSync(file, JSON.stringify({ tokens }));
  // A later mtime, as a rotation some time after the last read has.
  if (mtime) fs.utimesSync(file, mtime, mtime);
};

const refusal = async (auth: Authenticator, header: string | undefined): Promise<ApiError> => {
  try {
    await auth.authenticate(header);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('accepted');
};

describe('createTokenFileAuthenticator', () => {
  it('maps a token to its entry by hash; the file never holds the token', async () => {
    const token = generateToken();
    expect(token).toMatch(/^tl_[A-Za-z0-9_-]{43}$/);
    write([{ sha256: tokenSha256(token), id: 'alice', roles: ['developer', 'approver'], tenant: 'acme' }]);
    const auth = createTokenFileAuthenticator({ file });
    expect(await auth.authenticate(`Bearer ${token}`)).toEqual({
      id: 'alice',
      roles: ['developer', 'approver'],
      tenant: 'acme',
      via: 'token',
    });
    expect(fs.readFileSync(file, 'utf8')).not.toContain(token);
    expect((await refusal(auth, `Bearer ${token}x`)).code).toBe('unauthenticated');
    expect((await refusal(auth, undefined)).message).toMatch(/Authorization: Bearer/);
    expect((await refusal(auth, tokenSha256(token))).code).toBe('unauthenticated');
  });

  it('re-reads the file when it changes: a revoked token stops working and a new one starts, without a restart', async () => {
    const [old, fresh] = [generateToken(), generateToken()];
    write([{ sha256: tokenSha256(old), id: 'bob', roles: [] }]);
    const auth = createTokenFileAuthenticator({ file });
    expect((await auth.authenticate(`Bearer ${old}`)).id).toBe('bob');
    write([{ sha256: tokenSha256(fresh), id: 'bob', roles: ['ops'] }], new Date(Date.now() + 5_000));
    expect((await refusal(auth, `Bearer ${old}`)).code).toBe('unauthenticated');
    expect(await auth.authenticate(`Bearer ${fresh}`)).toMatchObject({ id: 'bob', roles: ['ops'] });
  });

  it("current: a person's roles as the file says now, by id and tenant; none when they are gone; the fewest when tokens disagree", async () => {
    const [one, two] = [generateToken(), generateToken()];
    write([{ sha256: tokenSha256(one), id: 'carol', roles: ['auditor', 'developer'], tenant: 'acme' }]);
    const auth = createTokenFileAuthenticator({ file });
    const carol = await auth.authenticate(`Bearer ${one}`);
    write(
      [
        { sha256: tokenSha256(one), id: 'carol', roles: ['developer'], tenant: 'acme' },
        { sha256: tokenSha256(two), id: 'carol', roles: ['developer', 'auditor'], tenant: 'acme' },
        { sha256: tokenSha256(generateToken()), id: 'carol', roles: ['auditor'], tenant: 'globex' },
      ],
      new Date(Date.now() + 5_000),
    );
    await expect(auth.current!(carol)).resolves.toEqual({
      id: 'carol',
      roles: ['developer'],
      tenant: 'acme',
      via: 'token',
    });
    write([{ sha256: tokenSha256(two), id: 'carol', roles: ['auditor'] }], new Date(Date.now() + 10_000));
    // Another tenant's (or no tenant's) carol is another person.
    await expect(auth.current!(carol)).resolves.toBeUndefined();
  });

  it('refuses everyone, saying why once, when the file is missing, not JSON or not the right shape', async () => {
    const token = generateToken();
    const logs: string[] = [];
    const auth = createTokenFileAuthenticator({ file, log: (l) => logs.push(l) });
    await refusal(auth, `Bearer ${token}`);
    await refusal(auth, `Bearer ${token}`);
    expect(logs).toEqual([expect.stringContaining('is missing')]);

    fs.writeFileSync(file, `{ "tokens": [ { "sha256": "${tokenSha256(token)}", "id": "x", } ] }`);
    await refusal(auth, `Bearer ${token}`);
    expect(logs[1]).toMatch(/refused: it is not JSON .*Every request is refused until it is fixed/);

    // One bad entry spoils the file: nobody gets in on a half-read list.
    write(
      [
        { sha256: tokenSha256(token), id: 'x', roles: [] },
        { sha256: 'not-hex', id: 'y' },
      ],
      new Date(Date.now() + 5_000),
    );
    await refusal(auth, `Bearer ${token}`);
    expect(logs[2]).toMatch(/does not match .*sha256/);
    expect(logs).toHaveLength(3);
  });
});

describe('createCombinedAuthenticator', () => {
  it('sends JWT-shaped tokens to OIDC when it is configured and the rest to the token file', async () => {
    const token = generateToken();
    write([{ sha256: tokenSha256(token), id: 'carol', roles: [] }]);
    const seen: string[] = [];
    const oidc: Authenticator = {
      authenticate: async (header) => {
        seen.push(header!);
        return { id: 'from-oidc', roles: ['developer'], via: 'oidc' };
      },
    };
    const auth = createCombinedAuthenticator({ tokens: createTokenFileAuthenticator({ file }), oidc });
    expect((await auth.authenticate(`Bearer ${token}`)).id).toBe('carol');
    expect((await auth.authenticate('Bearer aaa.bbb.ccc')).id).toBe('from-oidc');
    expect(seen).toEqual(['Bearer aaa.bbb.ccc']);
    const tokensOnly = createCombinedAuthenticator({ tokens: createTokenFileAuthenticator({ file }) });
    expect((await refusal(tokensOnly, 'Bearer aaa.bbb.ccc')).code).toBe('unauthenticated');
    expect((await refusal(auth, undefined)).code).toBe('unauthenticated');
    expect(seen).toHaveLength(1);
  });
});
