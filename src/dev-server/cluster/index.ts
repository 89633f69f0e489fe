/** A production-like Temporal cluster on this machine (real server, four roles, PostgreSQL), for `npm run cluster` and `npm run test:cluster`. Node-only. */
export { startCluster, type RunningCluster, type StartClusterOptions } from './start-cluster';
export { stopCluster, type StopClusterOptions } from './stop-cluster';
export { restartClusterPostgres, restartServerRoles, type RestartClusterOptions } from './restart-cluster';
export { clusterStatus, type ClusterStatus } from './cluster-status';
export { ensureSearchAttributesReady } from './search-attributes-ready';
export { TEMPORAL_SERVER_VERSION } from './cluster-paths';
