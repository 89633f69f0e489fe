import { ensureTemporalServer } from '../../dev-server';
import { findProjectRoot, thoughtlinePaths } from '../../dev-server/project-paths';
import { loadMcpConfig } from '../../activities/mcp/load-mcp-config';
import { loadToolsModule } from '../load-tools-module';
import { connectOrStart, log, startWorker } from '../runtime';
import { untilSignal } from './until-signal';

/**
 * `dev`: a Temporal dev server in the foreground until Ctrl-C or SIGTERM, then stopped. Returns
 * the exit code: 1 when the server exits by itself first.
 */
export async function dev(port?: number): Promise<number> {
  const server = await ensureTemporalServer({ detached: false, log, ...(port ? { port } : {}) });
  if (server.source !== 'started') {
    log(`a Temporal server is already available at ${server.address}; nothing to start.`);
    return 0;
  }
  log(`dev server on ${server.address}${server.uiUrl ? `, Web UI ${server.uiUrl}` : ''}. Ctrl-C stops it.`);
  const ended = await Promise.race([untilSignal().then(() => undefined), server.exited ?? new Promise<never>(() => {})]);
  if (ended !== undefined) {
    log(`${ended}; its output is in ${thoughtlinePaths(findProjectRoot()).logFile}`);
    return 1;
  }
  log('stopping the dev server');
  await server.stop();
  return 0;
}

/** `worker`: polls the task queue until Ctrl-C or SIGTERM, then drains and exits. */
export async function worker(toolsModule?: string, mcpFile?: string): Promise<void> {
  // Read first: a bad config file is reported before anything starts.
  const mcp = mcpFile ? await loadMcpConfig(mcpFile) : undefined;
  const connected = await connectOrStart();
  const running = await startWorker(connected, toolsModule ? loadToolsModule(toolsModule) : [], mcp ? { mcp } : {});
  log(`worker polling task queue "${connected.config.taskQueue}" on ${connected.server.address}. Ctrl-C stops it.`);
  await Promise.race([untilSignal(), running.done]);
  await running.shutdown();
}
