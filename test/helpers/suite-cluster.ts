import { clusterPaths } from '../../src/dev-server/cluster/cluster-paths';
import { readClusterState, type ClusterState } from '../../src/dev-server/cluster/lifecycle/cluster-state';
import { findProjectRoot } from '../../src/dev-server/project-paths';

/** The cluster `npm run test:cluster` started for the suite; it names it so a test can read its state. */
export function suiteCluster(): ClusterState {
  const name = process.env.THOUGHTLINE_TEST_CLUSTER_NAME;
  if (!name) throw new Error('THOUGHTLINE_TEST_CLUSTER_NAME is not set: run these tests with npm run test:cluster');
  const state = readClusterState(clusterPaths(findProjectRoot(__dirname), name).stateFile);
  if (!state) throw new Error(`cluster ${name} has no state file`);
  return state;
}
