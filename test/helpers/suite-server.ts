import { startTestServer, type TestServer } from '../../src/dev-server';
import { ensureSearchAttributesReady } from '../../src/dev-server/cluster';

/**
 * The server the whole suite runs on: the one THOUGHTLINE_TEST_TEMPORAL_ADDRESS names (a cluster,
 * `npm run test:cluster`), in THOUGHTLINE_TEST_TEMPORAL_NAMESPACE (default 'default'), with
 * Thoughtline's search attributes registered there and usable before any test starts; else an
 * in-memory dev server of its own. Only a server it started is stopped at the end.
 */
export async function startSuiteServer(log: (line: string) => void): Promise<TestServer> {
  const address = process.env.THOUGHTLINE_TEST_TEMPORAL_ADDRESS;
  if (!address) return startTestServer({ log });
  const namespace = process.env.THOUGHTLINE_TEST_TEMPORAL_NAMESPACE || 'default';
  const added = await ensureSearchAttributesReady({ address }, namespace, { timeoutMs: 120_000 });
  if (added.length > 0) log(`registered search attributes ${added.join(', ')} in namespace ${namespace}`);
  log(`running on the server at ${address} (namespace ${namespace}) from THOUGHTLINE_TEST_TEMPORAL_ADDRESS`);
  return { address, namespace, stop: async () => {} };
}
