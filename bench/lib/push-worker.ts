import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createAnthropicProvider } from '../../src/activities/models/anthropic-provider';
import type { RunEvent } from '../../src/shared/run-event';
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
  /** Where model text deltas go: the server's `POST /bench/events`. */
  eventsUrl: string;
}

/**
 * Entry of the push figure's worker process: a real agent worker on the Anthropic provider
 * (pointed at the timed Messages server), in its own process. Model text deltas are posted to
 * the server in batches (one per I/O turn) through the worker's `onModelDelta` hook. Steps are
 * not published: no step publisher is in main yet, so steps reach watchers through the server's
 * safety net (a `status` poll about once a second).
 */
async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as PushWorkerSpec;
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
  const connection = await NativeConnection.connect({ address: spec.address });
  const offsets = new Map<string, number>();
  let batch: RunEvent[] = [];
  const flush = (): void => {
    const events = batch;
    batch = [];
    void fetch(spec.eventsUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(events) }).catch(() => {});
  };
  const worker = await createAgentWorker({
    connection,
    namespace: spec.namespace,
    taskQueue: spec.taskQueue,
    tools: [benchTool()],
    models: { anthropic: createAnthropicProvider({ apiKey: 'bench', baseURL: spec.modelBaseUrl }) },
    workflowBundle: { codePath: spec.bundlePath },
    onModelDelta: ({ workflowId, activityId, attempt, kind, text }) => {
      const key = `${workflowId}#${activityId}#${attempt}#${kind}`;
      const offset = offsets.get(key) ?? 0;
      offsets.set(key, offset + text.length);
      if (batch.length === 0) setImmediate(flush);
      batch.push({ type: 'text_delta', runId: workflowId, chainStatus: 'thinking', stepNumber: 0, activityId, attempt, kind, offset, text });
    },
  });
  process.on('message', (message) => {
    if (message === 'stop') worker.shutdown();
  });
  process.once('disconnect', () => process.exit(1));
  const running = worker.run();
  process.send?.({ type: 'ready' });
  await running;
  await connection.close();
  process.disconnect?.();
}

main().catch((err: unknown) => {
  console.error('push worker failed:', err);
  process.exit(1);
});
