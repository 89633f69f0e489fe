import type { Connection } from '@temporalio/client';
import { SearchAttributesNotVisibleError } from './search-attributes-not-visible-error';

export interface SearchAttributeWait {
  /** Default 30 s: a cluster's namespace cache refreshes every 10 s. */
  timeoutMs?: number;
  /** The first pause between two list calls (default 100 ms); each pause doubles, up to `maxDelayMs` (default 2 s). */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Resolves once the server lists every one of `names` among `namespace`'s custom search
 * attributes: what every code path that registers them waits for before it starts a run, since a
 * server may accept the registration before it shows it. Polls listSearchAttributes with doubling
 * pauses; a failed list call counts as "not yet". Throws SearchAttributesNotVisibleError when
 * `timeoutMs` passes first. Reads only; never registers.
 */
export async function waitForSearchAttributes(
  connection: Pick<Connection, 'operatorService'>,
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
    if (missing.length === 0) return;
    const waited = Date.now() - started;
    if (waited >= timeoutMs)
      throw new SearchAttributesNotVisibleError(namespace, missing, waited, lastError ? { cause: lastError } : {});
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, timeoutMs - waited)));
    delay = Math.min(delay * 2, maxDelayMs);
  }
}
