import { ensureTemporalServer } from '../../dev-server';
import { loadToolsModule } from '../load-tools-module';
import { connect, log, startWorker } from '../runtime';

const untilSignal = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });

/** `dev`: a Temporal dev server in the foreground until Ctrl-C. */
export async function dev(): Promise<void> {
  const server = await ensureTemporalServer({ detached: false, log });
  if (server.source !== 'started') {
    log(`a Temporal server is already available at ${server.address}; nothing to start.`);
    return;
  }
  log(`dev server on ${server.address}${server.uiUrl ? `, Web UI ${server.uiUrl}` : ''}. Ctrl-C stops it.`);
  await untilSignal();
  await server.stop();
}

/** `worker`: polls the task queue until Ctrl-C or SIGTERM, then drains and exits. */
export async function worker(toolsModule?: string): Promise<void> {
  const connected = await connect();
  const running = await startWorker(connected, toolsModule ? loadToolsModule(toolsModule) : []);
  log(`worker polling task queue "${connected.config.taskQueue}" on ${connected.server.address}. Ctrl-C stops it.`);
  await Promise.race([untilSignal(), running.done]);
  await running.shutdown();
}
