import { loadConfig } from '../config';
import { checkNamespace, missingAttributesHint } from './check-namespace';
import { findOrInstallTemporalCli } from './find-or-install-temporal-cli';
import { isReachable } from './is-reachable';
import { findProjectRoot } from './project-paths';
import { startDevServer } from './start-dev-server';
import type { EnsureServerOptions, TemporalServer } from './temporal-server';

const DEFAULT_PORT = 7233;

/** Throws a message naming `what` when the namespace check fails, and logs missing search attributes. */
async function verifyExisting(address: string, namespace: string, what: string, log: (l: string) => void): Promise<void> {
  let missing: string[];
  try {
    missing = await checkNamespace(address, namespace);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new Error(`${what} ${address} accepts connections but namespace '${namespace}' does not answer: ${detail}`);
  }
  if (missing.length > 0) log(missingAttributesHint(address, namespace, missing));
}

/**
 * A reachable Temporal server, in this order: TEMPORAL_ADDRESS (must answer, never replaced),
 * a server already listening on 127.0.0.1:<port>, or a dev server started from a found or
 * freshly installed `temporal` binary. TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE come from `loadConfig()`.
 */
export async function ensureTemporalServer(opts: EnsureServerOptions = {}): Promise<TemporalServer> {
  const log = opts.log ?? ((line: string) => console.error(line));
  const { namespace, temporalAddress: envAddress } = loadConfig();
  const noStop = async (): Promise<void> => {};

  if (envAddress) {
    if (!(await isReachable(envAddress, 3000))) {
      throw new Error(
        `TEMPORAL_ADDRESS is set to '${envAddress}' but nothing accepts connections there. ` +
          'Start that server, or unset TEMPORAL_ADDRESS to let Thoughtline start a local dev server.',
      );
    }
    // Best effort only: a remote server may need TLS or an API key, or refuse the operator API.
    await verifyExisting(envAddress, namespace, 'TEMPORAL_ADDRESS', log).catch((err: Error) => log(`warning: ${err.message}`));
    log(`using the Temporal server at ${envAddress} from TEMPORAL_ADDRESS (namespace ${namespace})`);
    return { address: envAddress, namespace, source: 'env', stop: noStop };
  }

  const port = opts.port ?? DEFAULT_PORT;
  const local = `127.0.0.1:${port}`;
  if (await isReachable(local)) {
    await verifyExisting(local, namespace, 'the server already listening at', log);
    const uiUrl = (await isReachable(`127.0.0.1:${port + 1000}`)) ? `http://localhost:${port + 1000}` : undefined;
    log(`reusing the Temporal server already running at ${local} (namespace ${namespace}${uiUrl ? `; Web UI: ${uiUrl}` : ''})`);
    return { address: local, namespace, uiUrl, source: 'already-running', stop: noStop };
  }

  const projectRoot = opts.projectRoot ?? findProjectRoot();
  const cli = await findOrInstallTemporalCli({ projectRoot, log });
  return startDevServer({ cli, projectRoot, port, namespace, detached: opts.detached ?? false, log });
}
