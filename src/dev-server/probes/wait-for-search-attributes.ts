import { isGrpcServiceError, type Connection } from '@temporalio/client';
import { SearchAttributesNotVisibleError } from './search-attributes-not-visible-error';

/** gRPC's INVALID_ARGUMENT: how a frontend refuses a query naming an attribute it does not know. */
const INVALID_ARGUMENT = 3;

export interface SearchAttributeWait {
  /** Default 30 s: a cluster's namespace cache refreshes every 10 s. */
  timeoutMs?: number;
  /** The first pause between two checks (default 100 ms); each pause doubles, up to `maxDelayMs` (default 2 s). */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * True once the frontend accepts a visibility query naming every one of `names`: it checks a
 * query against its namespace cache, as it checks a workflow start, where the list call reads the
 * database. False while it refuses one as unknown ("invalid search attribute"). True too when it
 * refuses for another reason (the call not allowed, a store without queries): the list is then all
 * there is to go by, and a start refused meanwhile is tried again (retryUnknownSearchAttribute).
 */
async function frontendKnows(
  connection: Pick<Connection, 'workflowService'>,
  namespace: string,
  names: readonly string[],
): Promise<boolean> {
  try {
    // Matches no run, so it stays cheap on a namespace with many; the names are checked all the same.
    const query = [`WorkflowId = 'thoughtline-search-attribute-probe'`, ...names.map((name) => `${name} IS NULL`)].join(
      ' AND ',
    );
    await connection.workflowService.countWorkflowExecutions({ namespace, query });
    return true;
  } catch (err) {
    return !(isGrpcServiceError(err) && err.code === INVALID_ARGUMENT && /search attribute/i.test(err.details));
  }
}

/**
 * Resolves once the server lists every one of `names` among `namespace`'s custom search attributes
 * and its frontend accepts a query on them: what every code path that registers them waits for
 * before a run starts. A server stores a registration at once but applies it when its namespace
 * cache refreshes (every 10 s by default; the `temporal` CLI's dev server refreshes on every read),
 * and refuses runs that carry the attributes until then. Polls with doubling pauses; a failed list
 * call counts as "not yet". Throws SearchAttributesNotVisibleError when `timeoutMs` passes first.
 * Reads only: never registers, never starts anything. Several frontends behind one address may
 * each refresh at their own time: a start can still be refused just after, and is tried again.
 */
export async function waitForSearchAttributes(
  connection: Pick<Connection, 'operatorService' | 'workflowService'>,
  namespace: string,
  names: readonly string[],
  options: SearchAttributeWait = {},
): Promise<void> {
  const { timeoutMs = 30_000, firstDelayMs = 100, maxDelayMs = 2_000 } = options;
  const started = Date.now();
  let delay = firstDelayMs;
  let lastError: unknown;
  for (;;) {
    let missing: string[];
    try {
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
      missing = names.filter((name) => !(customAttributes && name in customAttributes));
      lastError = undefined;
    } catch (err) {
      missing = [...names];
      lastError = err;
    }
    const listed = missing.length === 0;
    if (listed && (await frontendKnows(connection, namespace, names))) return;
    const waited = Date.now() - started;
    if (waited >= timeoutMs)
      throw new SearchAttributesNotVisibleError(namespace, listed ? [...names] : missing, listed, waited, {
        ...(lastError ? { cause: lastError } : {}),
      });
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, timeoutMs - waited)));
    delay = Math.min(delay * 2, maxDelayMs);
  }
}
