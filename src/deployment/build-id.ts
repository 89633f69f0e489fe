import { createHash } from 'node:crypto';

/**
 * The build id of a worker: the package version and a hash of its workflow bundle, so any change
 * to workflow code (or to what the bundle includes) is a new build, and the same code the same one.
 */
export function buildIdOf(packageVersion: string, bundleCode: string): string {
  return `${packageVersion}-${createHash('sha256').update(bundleCode).digest('hex').slice(0, 12)}`;
}
