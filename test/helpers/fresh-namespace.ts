import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';

/** A namespace no test has used (so without Thoughtline's search attributes), once the server describes it. */
export async function freshNamespace(client: Client, prefix = 'ns'): Promise<string> {
  const namespace = `${prefix}-${randomUUID().slice(0, 8)}`;
  const { workflowService } = client.connection;
  await workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
  for (let tries = 0; ; tries++) {
    try {
      await workflowService.describeNamespace({ namespace });
      return namespace;
    } catch (err) {
      if (tries > 100) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
