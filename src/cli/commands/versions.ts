import { listVersions, setCurrentVersion } from '../../deployment';
import { connect } from '../runtime';
import { writeSafe } from '../render/terminal-safe';

/** `versions`: the Worker Deployment Versions of the configured task queue's deployment, newest first. */
export async function printVersions(options: { json: boolean }): Promise<number> {
  const { agents, config } = await connect();
  try {
    const versions = await listVersions(agents.client, config.taskQueue);
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ deployment: config.taskQueue, versions }, null, 2)}\n`);
      return 0;
    }
    if (versions.length === 0) {
      writeSafe(
        process.stdout,
        `Deployment "${config.taskQueue}" has no versions: no versioned worker has polled it (thoughtline worker starts one).\n`,
      );
      return 0;
    }
    const lines = versions.map(
      (v) =>
        `${v.status.padEnd(9)} ${v.buildId}  created ${v.createdAt ?? '?'}${v.currentSince ? `, current since ${v.currentSince}` : ''}`,
    );
    writeSafe(process.stdout, `Deployment "${config.taskQueue}":\n${lines.join('\n')}\n`);
    return 0;
  } finally {
    await agents.client.connection.close();
  }
}

/**
 * `set-current-version <buildId>`: new runs go to that version's workers; runs pinned to other
 * versions stay on theirs (a rollback is the same command with the earlier build id).
 * `null` (--unversioned): new runs go to unversioned workers again.
 */
export async function setCurrent(buildId: string | null): Promise<number> {
  const { agents, config } = await connect();
  try {
    await setCurrentVersion(agents.client, config.taskQueue, buildId);
    writeSafe(
      process.stdout,
      buildId
        ? `New runs on "${config.taskQueue}" go to version ${buildId}; open runs stay on the version that started them.\n`
        : `New runs on "${config.taskQueue}" go to unversioned workers.\n`,
    );
    return 0;
  } finally {
    await agents.client.connection.close();
  }
}
