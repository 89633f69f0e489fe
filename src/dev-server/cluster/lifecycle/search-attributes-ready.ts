import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import {
  encodeSearchAttributeIndexedValueType,
  type SearchAttributePair,
} from '@temporalio/common/lib/search-attributes';
import type { TemporalEndpoint } from '../../../connection/connection-settings';
import { SEARCH_ATTRIBUTES } from '../../../domain/run/search-attributes';
import { retryUntil, type RetryOptions } from './retry-until';

const PROBE_TASK_QUEUE = 'thoughtline-search-attributes-check';

/** A value of each attribute's type, for the probe run. */
const PROBE_ATTRIBUTES = SEARCH_ATTRIBUTES.map(
  ({ key }) => ({ key, value: key.type === 'KEYWORD' ? 'check' : 0 }) as SearchAttributePair,
);

async function missingAttributes(connection: Connection, namespace: string): Promise<typeof SEARCH_ATTRIBUTES> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  return SEARCH_ATTRIBUTES.filter((a) => !(customAttributes && a.name in customAttributes));
}

/**
 * Registers the Thoughtline search attributes `namespace` lacks and returns only once a run can
 * use them: once the operator service lists them all, and once a run carrying every one of them
 * starts (it is deleted at once). On a cluster the second comes seconds after the first: the
 * frontend checks a start against its namespace cache, which refreshes on its own clock, and a
 * start before that fails with "Failed to start Workflow". Returns the names it registered.
 */
export async function ensureSearchAttributesReady(
  endpoint: TemporalEndpoint,
  namespace: string,
  opts: RetryOptions,
): Promise<string[]> {
  const connection = await Connection.connect({ ...endpoint, connectTimeout: 5000 });
  try {
    const added = await retryUntil(`registering search attributes in namespace ${namespace}`, opts, async () => {
      const missing = await missingAttributes(connection, namespace);
      if (missing.length > 0) {
        await connection.operatorService.addSearchAttributes({
          namespace,
          // The encoder is undefined only for a null type, which no key has.
          searchAttributes: Object.fromEntries(
            missing.map((a) => [a.name, encodeSearchAttributeIndexedValueType(a.key.type)!]),
          ),
        });
      }
      return missing.map((a) => a.name);
    });
    await retryUntil(`search attributes listed in namespace ${namespace}`, opts, async () => {
      const missing = await missingAttributes(connection, namespace);
      if (missing.length > 0) throw new Error(`not listed yet: ${missing.map((a) => a.name).join(', ')}`);
    });
    const client = new Client({ connection, namespace });
    await retryUntil(`a run with every search attribute starting in namespace ${namespace}`, opts, async () => {
      const handle = await client.workflow.start('thoughtlineSearchAttributesCheck', {
        taskQueue: PROBE_TASK_QUEUE,
        workflowId: `thoughtline-search-attributes-check-${randomUUID()}`,
        typedSearchAttributes: PROBE_ATTRIBUTES,
        // A safety net should the delete below fail.
        workflowRunTimeout: '1 minute',
      });
      await connection.workflowService
        .deleteWorkflowExecution({ namespace, workflowExecution: { workflowId: handle.workflowId } })
        .catch(() => {});
    });
    return added;
  } finally {
    await connection.close();
  }
}
