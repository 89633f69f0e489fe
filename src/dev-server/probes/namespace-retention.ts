import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import type { TemporalEndpoint } from '../../connection/connection-settings';

const DAY_SECONDS = 86_400;

/**
 * Sets how long Temporal keeps a closed run's history in `namespace` (the server deletes it
 * after that; `thoughtline export` is how a chain outlives it). Returns the days now in force.
 */
export async function setNamespaceRetention(
  endpoint: TemporalEndpoint,
  namespace: string,
  days: number,
): Promise<number> {
  const connection = await Connection.connect({ ...endpoint, connectTimeout: 2000 });
  try {
    await connection.workflowService.updateNamespace({
      namespace,
      config: { workflowExecutionRetentionTtl: msToTs(days * DAY_SECONDS * 1000) },
    });
    const described = await connection.workflowService.describeNamespace({ namespace });
    return Number(described.config?.workflowExecutionRetentionTtl?.seconds ?? 0) / DAY_SECONDS;
  } finally {
    await connection.close();
  }
}
