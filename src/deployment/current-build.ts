import type { Client } from '@temporalio/client';

/**
 * The build id deployment `name` sends new runs to now; undefined when none is current or the
 * deployment has no versions yet. Read-only: one DescribeWorkerDeployment call.
 */
export async function currentBuildId(client: Client, name: string): Promise<string | undefined> {
  try {
    const { workerDeploymentInfo } = await client.workflowService.describeWorkerDeployment({
      namespace: client.options.namespace,
      deploymentName: name,
    });
    return workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId || undefined;
  } catch (err) {
    if ((err as { code?: number }).code === 5) return undefined; // NOT_FOUND: no worker of it has run yet
    throw err;
  }
}
