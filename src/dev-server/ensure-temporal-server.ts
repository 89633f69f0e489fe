import { loadConfig } from '../config';
import { endpointOf, securityOf, type ConnectionSettings } from '../connection/connection-settings';
import { explainConnectFailure } from '../connection/explain-connect-failure';
import { TemporalConnectionError } from '../connection/temporal-connection-error';
import { checkCanStartWorkflow } from './probes/check-can-start-workflow';
import { checkNamespace, missingAttributesHint } from './probes/check-namespace';
import { findListeningPid } from './probes/find-listening-pid';
import { findOrInstallTemporalCli } from './install/find-or-install-temporal-cli';
import { isReachable } from './probes/is-reachable';
import { NoTemporalServerError } from './no-temporal-server-error';
import { DEFAULT_DEV_PORT, findProjectRoot, thoughtlinePaths } from './project-paths';
import { serverOrigin } from './probes/server-origin';
import { startDevServer } from './start-dev-server';
import { withStartLock } from './install/start-lock';
import type { EnsureServerOptions, TemporalServer } from './temporal-server';

const noStop = async (): Promise<void> => {};

const detailOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * The server the connection settings name (TEMPORAL_ADDRESS or a temporal.toml profile), which
 * must answer; it is never replaced. A TLS or credential problem found on the way is fatal and
 * says what to set; anything else (a server that refuses the operator API) is only a warning.
 */
async function serverFromEnv(
  settings: ConnectionSettings & { address: string },
  log: (l: string) => void,
): Promise<TemporalServer> {
  const { address, namespace } = settings;
  const from = settings.addressFrom ?? 'TEMPORAL_ADDRESS';
  if (!(await isReachable(address, 3000))) {
    const unset = from === 'TEMPORAL_ADDRESS' ? 'unset TEMPORAL_ADDRESS' : 'remove it';
    throw new NoTemporalServerError(
      `${from} is set to '${address}' but nothing accepts connections there. ` +
        `Start that server, or ${unset} to use the local dev server ("npx thoughtline dev").`,
    );
  }
  const endpoint = endpointOf(settings);
  try {
    const missing = await checkNamespace(endpoint, namespace);
    if (missing.length > 0) log(missingAttributesHint(address, namespace, missing));
  } catch (err) {
    const explained = await explainConnectFailure(endpoint, err);
    if (explained instanceof TemporalConnectionError) throw explained;
    log(
      `warning: ${from} ${address} accepts connections but namespace '${namespace}' does not answer: ${detailOf(err)}`,
    );
  }
  log(`using the Temporal server at ${address} from ${from} (namespace ${namespace}, ${securityOf(endpoint)})`);
  return { address, endpoint, namespace, source: 'env', stop: noStop };
}

/**
 * The server listening on 127.0.0.1:<port>, once it has shown it works: it describes the
 * namespace and can start a workflow there. Undefined when nothing listens. A server that
 * listens but does not work (another program, or a dev server whose database was deleted with
 * its checkout) is reported with the pid to stop.
 */
async function workingLocalServer(
  port: number,
  namespace: string,
  log: (l: string) => void,
): Promise<TemporalServer | undefined> {
  const address = `127.0.0.1:${port}`;
  if (!(await isReachable(address))) return undefined;
  let missing: string[];
  try {
    missing = await checkNamespace({ address }, namespace);
  } catch (err) {
    throw brokenServer(address, port, `namespace '${namespace}' does not answer: ${detailOf(err)}`);
  }
  try {
    await checkCanStartWorkflow(address, namespace);
  } catch (err) {
    throw brokenServer(
      address,
      port,
      `it cannot start a workflow in namespace '${namespace}' (was its database deleted?): ${detailOf(err)}`,
    );
  }
  if (missing.length > 0) log(missingAttributesHint(address, namespace, missing));
  const uiUrl = (await isReachable(`127.0.0.1:${port + 1000}`)) ? `http://localhost:${port + 1000}` : undefined;
  const origin = serverOrigin(port, findProjectRoot());
  log(
    `reusing the Temporal server already running at ${address} (namespace ${namespace}${uiUrl ? `; Web UI: ${uiUrl}` : ''})${origin ? `, ${origin}` : ''}`,
  );
  return {
    address,
    endpoint: { address },
    namespace,
    ...(uiUrl ? { uiUrl } : {}),
    source: 'already-running',
    stop: noStop,
  };
}

function brokenServer(address: string, port: number, why: string): Error {
  const pid = findListeningPid(port);
  const stop = pid === undefined ? `stop the process listening on port ${port}` : `stop it (pid ${pid}: kill ${pid})`;
  return new Error(
    `a Temporal server on ${address} does not work (${why}); ${stop}, or set TEMPORAL_ADDRESS to a server that works`,
  );
}

/**
 * A running server, never starting one: TEMPORAL_ADDRESS (must answer), else a working server
 * on 127.0.0.1:<port>. Throws NoTemporalServerError, saying how to start one, when none runs.
 * For commands that only read or talk to existing runs.
 */
export async function findTemporalServer(
  opts: Pick<EnsureServerOptions, 'log' | 'port'> = {},
): Promise<TemporalServer> {
  const log = opts.log ?? ((line: string) => console.error(line));
  const { namespace, temporal } = loadConfig();
  if (temporal.address) return serverFromEnv({ ...temporal, address: temporal.address }, log);
  const port = opts.port ?? DEFAULT_DEV_PORT;
  const found = await workingLocalServer(port, namespace, log);
  if (found) return found;
  const flag = port === DEFAULT_DEV_PORT ? '' : ` --port ${port}`;
  throw new NoTemporalServerError(
    `no Temporal server is running at 127.0.0.1:${port}. Start one in another terminal with "npx thoughtline dev${flag}" ` +
      '(it runs until Ctrl-C), or set TEMPORAL_ADDRESS to yours.',
  );
}

/**
 * A reachable Temporal server, in this order: TEMPORAL_ADDRESS (must answer, never replaced),
 * a working server already listening on 127.0.0.1:<port>, or a dev server started from a found
 * or freshly installed `temporal` binary. Starting holds <projectRoot>/.thoughtline's start
 * lock, so two commands starting at once start one server and share it.
 * The address, namespace, TLS and credentials come from `loadConfig()` (TEMPORAL_* variables and the
 * temporal.toml profile).
 */
export async function ensureTemporalServer(opts: EnsureServerOptions = {}): Promise<TemporalServer> {
  const log = opts.log ?? ((line: string) => console.error(line));
  const { namespace, temporal, retentionDays } = loadConfig();
  if (temporal.address) return serverFromEnv({ ...temporal, address: temporal.address }, log);

  const port = opts.port ?? DEFAULT_DEV_PORT;
  const running = await workingLocalServer(port, namespace, log);
  if (running) return running;

  const projectRoot = opts.projectRoot ?? findProjectRoot();
  return withStartLock(thoughtlinePaths(projectRoot).startLockFile, { log }, async () => {
    // The holder we waited for has started it, most likely.
    const startedMeanwhile = await workingLocalServer(port, namespace, log);
    if (startedMeanwhile) return startedMeanwhile;
    const cli = await findOrInstallTemporalCli({ projectRoot, log });
    return startDevServer({ cli, projectRoot, port, namespace, detached: opts.detached ?? false, retentionDays, log });
  });
}
