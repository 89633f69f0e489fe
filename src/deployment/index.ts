export { buildIdOf } from './build-id';
export { listVersions, setCurrentVersion, type DeploymentVersionSummary } from './deployment-versions';
export {
  packageVersion,
  resolveVersion,
  versionText,
  type ResolvedVersion,
  type WorkerDeployment,
} from './worker-version';
