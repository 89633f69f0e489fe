import fs from 'node:fs';
import path from 'node:path';
import type { WorkerDeploymentOptions, WorkerOptions } from '@temporalio/worker';
import { buildIdOf } from './build-id';

/**
 * A worker's Worker Deployment Version (Temporal's worker versioning). Runs are pinned to the
 * version that started them: a new build never replays an open run's history, so workflow code
 * can change without `patched()`. Continue-as-new and sub-agents stay on their run's version.
 */
export interface WorkerDeployment {
  /** The deployment, one per task queue in practice (the CLI uses the task queue's name). */
  name: string;
  /** Default: the package version and a hash of the workflow bundle (buildIdOf). */
  buildId?: string;
  /**
   * Make this version current when the worker is created, so it takes every new run (default
   * true): the newest worker started wins. False leaves routing to `thoughtline set-current-version`
   * (a scripted rollout, or a ramp).
   */
  makeCurrent?: boolean;
}

/** The version a worker declares, and the bundle it runs (read once, so its hash is the build's). */
export interface ResolvedVersion {
  deploymentName: string;
  buildId: string;
  workflowBundle: { code: string };
  options: WorkerDeploymentOptions;
}

/** Thoughtline's version, from its own package.json (one folder up from src/ or dist/). */
export function packageVersion(): string {
  const file = path.join(__dirname, '..', '..', 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/** The version for `deployment`, over a bundle given as code or a path to it. */
export function resolveVersion(
  deployment: WorkerDeployment,
  bundle: NonNullable<WorkerOptions['workflowBundle']>,
): ResolvedVersion {
  const code = 'code' in bundle ? bundle.code : fs.readFileSync(bundle.codePath, 'utf8');
  const buildId = deployment.buildId ?? buildIdOf(packageVersion(), code);
  return {
    deploymentName: deployment.name,
    buildId,
    workflowBundle: { code },
    options: {
      useWorkerVersioning: true,
      version: { deploymentName: deployment.name, buildId },
      defaultVersioningBehavior: 'PINNED',
    },
  };
}

/** How a version is written for people: `deployment/buildId`. */
export const versionText = (v: { deploymentName: string; buildId: string }): string =>
  `${v.deploymentName}/${v.buildId}`;
