import os from 'node:os';

const TAG = 'thoughtline-cli build ';

/**
 * The identity a CLI worker polls with (Temporal lists it in DescribeTaskQueue): the SDK's
 * `pid@host`, and the build of its workflow code, so `run` can tell a worker of this code from
 * one of another checkout or version polling the same task queue.
 */
export const cliWorkerIdentity = (buildId: string): string => `${process.pid}@${os.hostname()} ${TAG}${buildId}`;

/** The build a poller's identity names, when a CLI worker polls; undefined for any other worker. */
export function buildOfIdentity(identity: string): string | undefined {
  const at = identity.indexOf(TAG);
  return at === -1 ? undefined : identity.slice(at + TAG.length).split(' ')[0] || undefined;
}

/** Whether a poller is a CLI worker of another build than `buildId` (another checkout, another version). */
export const isOtherBuild =
  (buildId: string) =>
  (identity: string): boolean => {
    const build = buildOfIdentity(identity);
    return build !== undefined && build !== buildId;
  };
