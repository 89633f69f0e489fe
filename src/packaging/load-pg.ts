import type pg from 'pg';
import { requireOptionalPeers } from './optional-peers';

/**
 * node-postgres, required on first use by `feature` (the Postgres store, the query tool, the
 * cluster): an optional peer, so OptionalPeerMissingError names its install command when absent.
 */
export function loadPg(feature: string): typeof pg {
  return requireOptionalPeers(feature, ['pg'], () => require('pg') as typeof pg);
}
