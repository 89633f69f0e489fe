import type { CommandSpec } from '../../spec/command-line';
import { positiveInteger, text } from '../../spec/flags';
import { ensureTemporalServer } from '../../../dev-server';
import { findProjectRoot, thoughtlinePaths } from '../../../dev-server/project-paths';
import { log } from '../../setup/runtime';
import { workerVersion } from '../../../worker';
import { versionText } from '../../../deployment';
import { untilSignal } from '../../setup/until-signal';

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
  const ended = await Promise.race([
    untilSignal().then(() => undefined),
    server.exited ?? new Promise<never>(() => {}),
  ]);
  if (ended !== undefined) {
    log(`${ended}; its output is in ${thoughtlinePaths(findProjectRoot(), port).logFile}`);
    return 1;
  }
  log('stopping the dev server');
  await server.stop();
  return 0;
}

/** What a started worker says of its version. */
export function versionLine(w: Parameters<typeof workerVersion>[0], keepCurrent = false): string {
  const v = workerVersion(w);
  if (!v) return 'unversioned: it takes runs of any build (--unversioned)';
  return `version ${versionText(v)}${keepCurrent ? ' (not made current: thoughtline set-current-version ' + v.buildId + ')' : ', current: it takes every new run; runs pinned to other versions stay on them'}`;
}

export const DEV_COMMAND: CommandSpec = {
  name: 'dev',
  group: 'Operations',
  summary: 'run a Temporal dev server until Ctrl-C',
  description:
    'Run a Temporal dev server until Ctrl-C, its Web UI on the port + 1000. Other commands find it on 7233, or set TEMPORAL_ADDRESS=127.0.0.1:N.',
  examples: ['thoughtline dev', 'thoughtline dev --port 7300'],
  args: [],
  // The Web UI listens on the port + 1000, so the port stops 1,000 short of the last one.
  options: { port: text('N', 'the port (up to 64535)', { default: '7233' }) },
  run: async (l) => dev(positiveInteger(l, 'port', 64_535)),
};
