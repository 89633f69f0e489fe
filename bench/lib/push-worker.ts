import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createAnthropicProvider } from '../../src/activities/models/anthropic/anthropic-provider';
import { createEventBus } from '../../src/events/create-event-bus';
import { createAgentWorker } from '../../src/worker';
import { benchTool } from './bench-tools';

/** What the parent passes, as JSON in argv[2]. */
export interface PushWorkerSpec {
  address: string;
  namespace: string;
  taskQueue: string;
  bundlePath: string;
  /** The timed Messages server. */
  modelBaseUrl: string;
  /** The events server: the worker publishes to its `/v1/internal/events`. */
  serverUrl: string;
  /** A token whose identity has role `publisher`. */
  publisherToken: string;
}

/**
 * Entry of the push figure's worker process: a real agent worker on the Anthropic provider
 * (pointed at the timed Messages server), in its own process, publishing its run events (steps,
 * status, model text) over HTTP to the server, exactly as THOUGHTLINE_EVENTS=http://… does.
 */
async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as PushWorkerSpec;
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
  const connection = await NativeConnection.connect({ address: spec.address });
  const events = createEventBus(spec.serverUrl, { token: spec.publisherToken });
  const worker = await createAgentWorker({
    connection,
    namespace: spec.namespace,
    taskQueue: spec.taskQueue,
    tools: [benchTool()],
    models: { anthropic: createAnthropicProvider({ apiKey: 'bench', baseURL: spec.modelBaseUrl }) },
    workflowBundle: { codePath: spec.bundlePath },
    events,
  });
  process.on('message', (message) => {
    if (message === 'stop') worker.shutdown();
  });
  process.once('disconnect', () => process.exit(1));
  const running = worker.run();
  process.send?.({ type: 'ready' });
  await running;
  await events.close();
  await connection.close();
  process.disconnect?.();
}

main().catch((err: unknown) => {
  console.error('push worker failed:', err);
  process.exit(1);
});
