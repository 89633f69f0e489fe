import { NativeConnection, Runtime, Worker } from '@temporalio/worker';

let runtimeInstalled = false;

/**
 * The SDK core prints its own logs (payload size warnings, for one) to stdout unless they are
 * forwarded to the TS logger, which writes to stderr: stdout must carry only the reply line.
 */
function installRuntime() {
  if (runtimeInstalled) return;
  Runtime.install({ telemetryOptions: { logging: { forward: {} } } });
  runtimeInstalled = true;
}

/**
 * Temporal's worker performance guide recommends poller autoscaling (server 1.28+) over fixed
 * poller counts; executor slots keep their defaults (40 workflow tasks, 100 activities), which
 * cover many short concurrent runs on one worker.
 */
const pollers = { type: 'autoscaling' };

/**
 * One engine's worker on `taskQueue`. `workerModule` (a URL) exports `workerOptions(config)`:
 * the engine's activities, workflowsPath, plugins and bundlerOptions. With `bundlePath` the
 * worker loads that prebuilt workflow bundle instead of bundling at start, as Temporal advises
 * for production (bundlerOptions went into the bundle then).
 */
export async function createWorker({ workerModule, temporal, taskQueue, config, bundlePath }) {
  installRuntime();
  const { workerOptions } = await import(workerModule);
  const { workflowsPath, bundlerOptions, ...options } = workerOptions(config);
  const connection = await NativeConnection.connect({ address: temporal.address });
  const worker = await Worker.create({
    connection,
    namespace: temporal.namespace,
    taskQueue,
    workflowTaskPollerBehavior: pollers,
    activityTaskPollerBehavior: pollers,
    ...options,
    ...(bundlePath ? { workflowBundle: { codePath: bundlePath } } : { workflowsPath, bundlerOptions }),
  });
  return { worker, connection };
}
