import { createHash } from 'node:crypto';
import { IMPORT_ID_PREFIX } from '../domain/store/import-run-id';

/** Hex digits of the id's hash: 128 bits, so two different reports never share an id by chance. */
const HASH_HEX = 32;

/**
 * The id an imported report is kept under: IMPORT_ID_PREFIX and a hash of its tenant and sealed
 * final hash. Derived, never chosen: the same sealed report of the same tenant always lands on the
 * same id (importing twice writes nothing twice), a different report never does, and nothing a
 * report says (its own workflow id included) picks where it is written. The tenant is in the hash,
 * so one tenant's import never meets another tenant's row, and an answer never depends on one.
 */
export function importRunId(tenant: string | undefined, finalHash: string): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([tenant ?? null, finalHash]))
    .digest('hex');
  return `${IMPORT_ID_PREFIX}${hash.slice(0, HASH_HEX)}`;
}
