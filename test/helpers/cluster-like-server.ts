import { TestWorkflowEnvironment } from '@temporalio/testing';
import { findOrInstallTemporalCli } from '../../src/dev-server/install/find-or-install-temporal-cli';
import { installQuietRuntime } from './temporal-env';

/** How often the server below applies what was registered (a cluster's default is 10 s). */
export const NAMESPACE_CACHE_REFRESH_MS = 12_000;

/**
 * An in-memory dev server that applies a search attribute registration the way a cluster does:
 * when its namespace cache refreshes, every NAMESPACE_CACHE_REFRESH_MS. The `temporal` CLI's dev
 * server (and the suite's) refreshes its cache on every read, so the window where a run is refused
 * an attribute the server already lists never opens there. The caller tears it down.
 */
export async function startClusterLikeServer(): Promise<TestWorkflowEnvironment> {
  installQuietRuntime();
  const path = await findOrInstallTemporalCli({ log: (line) => console.error(`[temporal] ${line}`) });
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path },
      ip: '127.0.0.1',
      log: { format: 'pretty', level: 'error' },
      extraArgs: [
        '--dynamic-config-value',
        'system.forceSearchAttributesCacheRefreshOnRead=false',
        '--dynamic-config-value',
        `system.namespaceCacheRefreshInterval="${NAMESPACE_CACHE_REFRESH_MS / 1000}s"`,
      ],
    },
  });
}
