import type { Client } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { SEARCH_ATTRIBUTES } from '../shared';

/**
 * Registers Thoughtline's search attributes where they are missing: a run upserting an unknown
 * attribute would fail its workflow tasks. The dev server and docker-compose register them already.
 */
export async function ensureSearchAttributes(client: Client, namespace: string): Promise<string[]> {
  const operator = client.connection.operatorService;
  const existing = await operator.listSearchAttributes({ namespace });
  const known = new Set(Object.keys(existing.customAttributes ?? {}));
  const missing = SEARCH_ATTRIBUTES.filter((a) => !known.has(a.name));
  if (missing.length === 0) return [];
  await operator.addSearchAttributes({
    namespace,
    // The encoder is undefined only for a null type, which no key has.
    searchAttributes: Object.fromEntries(
      missing.map((a) => [a.name, encodeSearchAttributeIndexedValueType(a.key.type)!]),
    ),
  });
  return missing.map((a) => a.name);
}
