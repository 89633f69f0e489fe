import { describe, expect, it } from 'vitest';
import { stdioIdentity, StdioIdentityError } from '../../src/mcp-server/stdio-identity';
import { ApiError } from '../../src/server/api-error';
import type { Authenticator } from '../../src/server/auth/identity';

/** Knows one token, for alice of tenant acme; refuses every other as the token file does. */
const auth: Authenticator = {
  authenticate: async (header) => {
    if (header === 'Bearer tl_alice') return { id: 'alice', roles: ['approver'], tenant: 'acme', via: 'token' };
    throw new ApiError('unauthenticated', 'The bearer token is not valid: it is unknown, or was revoked.');
  },
};
const local = { id: 'me', roles: ['developer'] };

describe('who the stdio client is', () => {
  it('without a token: the local person, without a tenant, as for thoughtline run', async () => {
    expect(await stdioIdentity({ token: undefined, auth, local })).toEqual({
      id: 'me',
      roles: ['developer'],
      via: 'in-process',
    });
    expect(await stdioIdentity({ token: '  ', auth, local })).not.toHaveProperty('tenant');
  });

  it("with THOUGHTLINE_TOKEN: exactly the token's identity, tenant and roles", async () => {
    expect(await stdioIdentity({ token: 'tl_alice\n', auth, local })).toEqual({
      id: 'alice',
      roles: ['approver'],
      tenant: 'acme',
      via: 'token',
    });
  });

  it('a token that does not authenticate is refused, never replaced by the local person', async () => {
    await expect(stdioIdentity({ token: 'tl_mallory', auth, local })).rejects.toThrow(StdioIdentityError);
    await expect(stdioIdentity({ token: 'tl_mallory', auth, local })).rejects.toThrow(
      /THOUGHTLINE_TOKEN does not authenticate/,
    );
  });
});
