/** Getting a real Temporal server with no manual step: for the CLI, the demo and the tests. Node-only. */
export type { EnsureServerOptions, TemporalServer } from './temporal-server';
export { ensureTemporalServer, findTemporalServer } from './ensure-temporal-server';
export { NoTemporalServerError } from './no-temporal-server-error';
export { findOrInstallTemporalCli } from './install/find-or-install-temporal-cli';
export { devServerArgs } from './dev-server-args';
export { isReachable } from './probes/is-reachable';
export { startTestServer, type TestServer } from './start-test-server';
export { findOrInstallTestServer } from './install/find-or-install-test-server';
