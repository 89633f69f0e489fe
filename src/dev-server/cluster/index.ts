/** A production-like Temporal cluster on this machine (real server, four roles, PostgreSQL), for `npm run cluster` and `npm run test:cluster`. Node-only. */
export { startCluster, type RunningCluster, type StartClusterOptions } from './lifecycle/start-cluster';
export { stopCluster, type StopClusterOptions } from './lifecycle/stop-cluster';
export {
  restartClusterPostgres,
  restartServerRoles,
  type RestartClusterOptions,
  type RestartRolesOptions,
} from './lifecycle/restart-cluster';
export { clusterStatus, type ClusterStatus } from './lifecycle/cluster-status';
export { ensureSearchAttributesReady } from './lifecycle/search-attributes-ready';
export { TEMPORAL_SERVER_VERSION } from './cluster-paths';
