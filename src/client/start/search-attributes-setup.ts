import { isGrpcServiceError, type Client } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { waitForSearchAttributes, type SearchAttributeWait } from '../../dev-server/probes/wait-for-search-attributes';
import { SEARCH_ATTRIBUTES } from '../../domain';
import { GrpcCode } from '../errors/grpc-cause';

/**
 * Registers Thoughtline's search attributes where they are missing: a run upserting an unknown
 * attribute would fail its workflow tasks. The dev server and docker-compose register them already.
 * Returns the names it added once the server lists them all and its frontend accepts them (see
 * waitForSearchAttributes: a cluster applies a registration up to 10 s after storing it, and
 * refuses a run that carries it until then).
 * Throws SearchAttributesNotVisibleError when they are still not listed after `wait.timeoutMs`.
 */
export async function ensureSearchAttributes(
  client: Client,
  namespace: string,
  wait: SearchAttributeWait = {},
): Promise<string[]> {
  const operator = client.connection.operatorService;
  let existing;
  try {
    existing = await operator.listSearchAttributes({ namespace });
  } catch (err) {
    throw new Error(`could not read the search attributes of namespace '${namespace}'`, { cause: err });
  }
  const known = new Set(Object.keys(existing.customAttributes ?? {}));
  const missing = SEARCH_ATTRIBUTES.filter((a) => !known.has(a.name));
  if (missing.length === 0) return [];
  try {
    await operator.addSearchAttributes({
      namespace,
      // The encoder is undefined only for a null type, which no key has.
      searchAttributes: Object.fromEntries(
        missing.map((a) => [a.name, encodeSearchAttributeIndexedValueType(a.key.type)!]),
      ),
    });
  } catch (err) {
    // Another process registered them meanwhile: they are there; wait for the server to list them, as for ours.
    if (isGrpcServiceError(err) && err.code === GrpcCode.ALREADY_EXISTS) return waitedFor(missing.map((a) => a.name));
    throw new Error(`could not register search attributes in namespace '${namespace}'`, { cause: err });
  }
  return waitedFor(missing.map((a) => a.name));

  async function waitedFor(names: string[]): Promise<string[]> {
    await waitForSearchAttributes(client.connection, namespace, names, wait);
    return names;
  }
}
