import type { Identity } from './identity';

/**
 * The one key that names a person across requests: their tenant, their id and how they signed in.
 * The same id in two tenants is two people, and so is an id from an OIDC issuer and the same id
 * in the token file (a token-file id chosen equal to someone's OIDC subject must not reach their
 * threads, sessions or preferences). JSON, not a separator character, so no tenant and id spell
 * another's key. Token-file and in-process identities keep the two-part key they always had (their
 * saved preferences stay theirs); every other source adds itself as a third part.
 */
export const personKey = (identity: Person): string => JSON.stringify(personParts(identity));

type Person = Pick<Identity, 'id' | 'tenant'> & { via?: Identity['via'] };

/** The parts of `personKey`, for keys that name a person and something of theirs (a message, a thread). */
export function personParts(identity: Person): string[] {
  const person = [identity.tenant ?? '', identity.id];
  const via = identity.via;
  return via === undefined || via === 'token' || via === 'in-process' ? person : [...person, via];
}
