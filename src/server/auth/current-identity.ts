import type { Authenticator, Identity } from './identity';

/**
 * Who a person is now, for a door that acts for them after their request (a push delivery):
 * their current roles from the authentication source, or undefined when they are gone, their
 * credential has expired, or the source cannot say (then the door stops: fail closed).
 */
export type CurrentIdentity = (identity: Identity) => Promise<Identity | undefined>;

/**
 * The per-delivery resolver over the server's authenticator. The owner (id, tenant, auth source)
 * is kept from the identity given; only the roles are read again. An in-process identity (the
 * server's own, a public door's anonymous caller) has no source to re-read and holds as it is.
 */
export function currentIdentityFrom(auth: Authenticator, now: () => number = Date.now): CurrentIdentity {
  return async (identity) => {
    if (identity.expiresAt !== undefined && identity.expiresAt <= now()) return undefined;
    if (identity.via === 'in-process') return identity;
    if (!auth.current) return undefined;
    let found: Identity | undefined;
    try {
      found = await auth.current(identity);
    } catch {
      return undefined;
    }
    // Never another person: an authenticator that answers for someone else is not believed.
    if (!found || found.id !== identity.id || found.tenant !== identity.tenant || found.via !== identity.via)
      return undefined;
    return found;
  };
}
