import { Connection, isGrpcServiceError } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import type { TemporalEndpoint } from '../../../connection/connection-settings';
import { setNamespaceRetention } from '../../probes/namespace-retention';
import { retryUntil, type RetryOptions } from './retry-until';

const DAY_MS = 86_400_000;
/** gRPC status code. */
const ALREADY_EXISTS = 6;

/**
 * Waits until the frontend answers, registers `namespace` unless it exists, waits until the
 * frontend describes it (namespaces reach the frontend through a cache too), and sets how long
 * closed runs are kept. Returns whether it registered the namespace.
 */
export async function ensureNamespace(
  endpoint: TemporalEndpoint,
  namespace: string,
  retentionDays: number,
  opts: RetryOptions,
): Promise<boolean> {
  const connection = await retryUntil(`the frontend at ${endpoint.address} answering`, opts, async () => {
    const c = await Connection.connect({ ...endpoint, connectTimeout: 2000 });
    try {
      await c.withDeadline(Date.now() + 5000, () => c.workflowService.getSystemInfo({}));
      return c;
    } catch (err) {
      await c.close();
      throw err;
    }
  });
  try {
    const registered = await retryUntil(`registering namespace ${namespace}`, opts, async () => {
      try {
        await connection.workflowService.registerNamespace({
          namespace,
          workflowExecutionRetentionPeriod: msToTs(retentionDays * DAY_MS),
        });
        return true;
      } catch (err) {
        if (isGrpcServiceError(err) && err.code === ALREADY_EXISTS) return false;
        throw err;
      }
    });
    await retryUntil(`namespace ${namespace} described`, opts, () =>
      connection.workflowService.describeNamespace({ namespace }),
    );
    await setNamespaceRetention(endpoint, namespace, retentionDays);
    return registered;
  } finally {
    await connection.close();
  }
}
