import type { Person } from '../domain';
import type { Authenticator, Identity } from '../server/auth/identity';

/** THOUGHTLINE_TOKEN was given but does not authenticate: `mcp-server` over stdio refuses to start. */
export class StdioIdentityError extends Error {
  override readonly name = 'StdioIdentityError';
}

/**
 * Who the one stdio client is. With a token (THOUGHTLINE_TOKEN), the identity it authenticates
 * as, exactly as over HTTP (its tenant, its roles); a token that does not authenticate stops the
 * server (it never falls back to another identity). Without one, the local person, as for
 * `thoughtline run` (THOUGHTLINE_USER / THOUGHTLINE_ROLES, else the OS user) and like `run`
 * without a tenant: a local process cannot name a tenant it did not authenticate for.
 */
export async function stdioIdentity(options: {
  token: string | undefined;
  auth: Authenticator;
  local: Person;
}): Promise<Identity> {
  if (options.token === undefined || options.token.trim() === '')
    return { id: options.local.id, roles: [...options.local.roles], via: 'in-process' };
  try {
    return await options.auth.authenticate(`Bearer ${options.token.trim()}`);
  } catch (err) {
    throw new StdioIdentityError(
      `THOUGHTLINE_TOKEN does not authenticate (${err instanceof Error ? err.message : 'refused'}); fix it or unset it to act as the local user.`,
    );
  }
}
