import type { Identity } from '../auth/identity';

/**
 * The key a person's preferences are stored under: their tenant and identity id together, so the
 * same id in two tenants is two people (as the event streams count them). JSON, not a separator
 * character, so no pair of tenant and id can spell another's key.
 */
export const preferencesKey = (identity: Pick<Identity, 'id' | 'tenant'>): string =>
  JSON.stringify([identity.tenant ?? '', identity.id]);
