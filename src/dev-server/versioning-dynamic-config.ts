/**
 * Dynamic config for Worker Deployment Versioning on the servers the project starts (`thoughtline
 * dev`, the demo's, the tests'), as `KEY=JSON` values of `--dynamic-config-value`.
 *
 * Temporal 1.32's dev server has versioning on by default (checked with CLI 1.9.1); the two
 * switches are set anyway so a server whose defaults differ (an older CLI named by
 * THOUGHTLINE_TEMPORAL_CLI, the compose stack's pinned tag) behaves the same, not with an opaque
 * "not enabled" error at the first versioned worker.
 *
 * A version that stops being current is `draining` while runs pinned to it are open, and becomes
 * `drained` once Temporal has checked visibility and found none. By default it waits minutes
 * before it checks and between checks (the grace period allows for visibility lag); a dev server's
 * visibility is written in the same transaction, so seconds do, and `thoughtline versions` says
 * `drained` soon after the last pinned run ends. Development values, not production ones.
 */
export const VERSIONING_DYNAMIC_CONFIG: readonly string[] = [
  'system.enableDeploymentVersions=true',
  'frontend.workerVersioningWorkflowAPIs=true',
  'matching.wv.VersionDrainageStatusVisibilityGracePeriod="5s"',
  'matching.wv.VersionDrainageStatusRefreshInterval="5s"',
];
