import { SEARCH_ATTRIBUTES } from '../domain/run/search-attributes';
import { devServerTuningArgs } from './dev-server-tuning';
import { findOrInstallTemporalCli } from './install/find-or-install-temporal-cli';
import { waitForSearchAttributes } from './probes/wait-for-search-attributes';

export interface TestServer {
  address: string;
  namespace: string;
  stop(): Promise<void>;
}

/**
 * An in-memory dev server on a free port for one test file, with Thoughtline's search attributes
 * (listed by the server before this returns).
 * Uses `existing-path` so the SDK never downloads (its cached download expires after a day).
 * `@temporalio/testing` is a dev dependency, so it is loaded only when this is called.
 */
export async function startTestServer(
  opts: {
    log?: (line: string) => void;
    /** Dynamic config (`KEY=JSON`) replacing the tuning's value of the same key, e.g. a Temporal default to test against. */
    dynamicConfig?: readonly string[];
  } = {},
): Promise<TestServer> {
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const path = await findOrInstallTemporalCli({ log: opts.log });
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path },
      ip: '127.0.0.1',
      // Errors only: the start-up warnings of a throw-away server are noise in test output.
      log: { format: 'pretty', level: 'error' },
      searchAttributes: SEARCH_ATTRIBUTES.map((a) => a.key),
      extraArgs: devServerTuningArgs({ overrides: opts.dynamicConfig ?? [] }),
    },
  });
  const namespace = env.namespace ?? 'default';
  try {
    // Registered at start-up; a run started before the server lists them fails to start.
    await waitForSearchAttributes(
      env.connection,
      namespace,
      SEARCH_ATTRIBUTES.map((a) => a.name),
    );
  } catch (err) {
    await env.teardown();
    throw err;
  }
  return { address: env.address, namespace, stop: () => env.teardown() };
}
