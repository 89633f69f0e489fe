import { registerDeployment, removeDeployment } from './admin.mjs';
import { uniqueServiceName } from './infra.mjs';
import { invokeRun } from './ingress.mjs';
import { serveEndpoint } from './serve-endpoint.mjs';

/**
 * The agent's endpoint served from this process and registered with the server under a fresh
 * service name; `run(input)` invokes it through the ingress and waits for the result.
 */
export async function startInProcessAgent(server, { marksDir, options } = {}) {
  const serviceName = uniqueServiceName();
  const port = await serveEndpoint({ serviceName, marksDir, options });
  const deploymentId = await registerDeployment(server.admin, `http://127.0.0.1:${port}`);
  return {
    serviceName,
    run: (input) => invokeRun(server.ingress, serviceName, input),
    // The endpoint itself goes when the script exits; the server forgets the deployment now.
    remove: () => removeDeployment(server.admin, deploymentId),
  };
}
