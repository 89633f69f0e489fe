import { Connection } from '@temporalio/client';
import type { TemporalEndpoint } from '../../connection/connection-settings';
import { SEARCH_ATTRIBUTES } from '../../domain/run/search-attributes';
import { isReachable } from './is-reachable';

/**
 * Asks the frontend at `endpoint` to describe `namespace` and returns the Thoughtline search
 * attributes it lacks. Throws if the server or namespace does not answer.
 */
export async function checkNamespace(endpoint: TemporalEndpoint, namespace: string): Promise<string[]> {
  // lazy + finally: a failed connect must still close its channel, or grpc keeps redialling in the background.
  const connection = Connection.lazy({ ...endpoint, connectTimeout: 2000 });
  try {
    await connection.ensureConnected();
    return await connection.withDeadline(Date.now() + 5000, async () => {
      await connection.workflowService.describeNamespace({ namespace });
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
      return SEARCH_ATTRIBUTES.filter((a) => !(customAttributes && a.name in customAttributes)).map((a) => a.name);
    });
  } finally {
    await connection.close();
  }
}

/**
 * Retries `checkNamespace` until it answers or `timeoutMs` passes. `gaveUp` is polled between
 * tries so a caller whose server process died can stop waiting early.
 */
export async function waitForNamespace(
  address: string,
  namespace: string,
  opts: { timeoutMs: number; gaveUp?: () => string | undefined },
): Promise<string[]> {
  const deadline = Date.now() + opts.timeoutMs;
  let lastError: unknown;
  for (;;) {
    const reason = opts.gaveUp?.();
    if (reason) throw new Error(reason);
    try {
      // A plain TCP probe first: it fails fast while the port is still closed, where a gRPC connect waits its full timeout.
      if (await isReachable(address, 500)) return await checkNamespace({ address }, namespace);
      lastError = new Error('port not open yet');
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const detail = lastError instanceof Error ? lastError.message : String(lastError);
      throw new Error(`namespace '${namespace}' at ${address} did not answer within ${opts.timeoutMs} ms (${detail})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Log line telling how to register missing attributes; workflows that upsert them fail otherwise. */
export function missingAttributesHint(address: string, namespace: string, missing: string[]): string {
  const commands = SEARCH_ATTRIBUTES.filter((a) => missing.includes(a.name)).map(
    (a) =>
      `temporal operator search-attribute create --address ${address} --namespace ${namespace} --name ${a.name} --type ${a.cliType}`,
  );
  return [
    `warning: the server lacks Thoughtline search attributes ${missing.join(', ')}; register them with:`,
    ...commands,
  ].join('\n  ');
}
