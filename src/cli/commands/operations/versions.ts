import type { CommandSpec } from '../../spec/command-line';
import { flag } from '../../spec/flags';
import { listVersions, setCurrentVersion } from '../../../deployment';
import { connect } from '../../setup/runtime';
import { writeSafe } from '../../render/terminal-safe';

/**
 * `versions`: the Worker Deployment Versions of the configured deployment (THOUGHTLINE_DEPLOYMENT_NAME,
 * default the task queue), newest first, with the workers of each polling the task queue now.
 */
export async function printVersions(options: { json: boolean }): Promise<number> {
  const { agents, config } = await connect();
  try {
    const name = config.deploymentName;
    const versions = await listVersions(agents.client, name, config.taskQueue);
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ deployment: name, taskQueue: config.taskQueue, versions }, null, 2)}\n`);
      return 0;
    }
    if (versions.length === 0) {
      writeSafe(
        process.stdout,
        `Deployment "${name}" has no versions: no versioned worker has polled it (thoughtline worker starts one).\n`,
      );
      return 0;
    }
    const lines = versions.map(
      (v) =>
        `${v.status.padEnd(9)} ${v.buildId}  ${pollerText(v.pollers)}, created ${v.createdAt ?? '?'}${v.currentSince ? `, current since ${v.currentSince}` : ''}`,
    );
    writeSafe(process.stdout, `Deployment "${name}" (task queue "${config.taskQueue}"):\n${lines.join('\n')}\n`);
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
    await setCurrentVersion(agents.client, config.deploymentName, buildId);
    writeSafe(
      process.stdout,
      buildId
        ? `New runs of deployment "${config.deploymentName}" go to version ${buildId}; open runs stay on the version that started them.\n`
        : `New runs of deployment "${config.deploymentName}" go to unversioned workers.\n`,
    );
    return 0;
  } finally {
    await agents.client.connection.close();
  }
}

/** A version's pollers for people; none means its pinned runs wait until one of its workers starts. */
const pollerText = (n: number): string =>
  n === 0 ? 'no workers polling' : n === 1 ? '1 worker polling' : `${n} workers polling`;

export const VERSIONS_COMMAND: CommandSpec = {
  name: 'versions',
  group: 'Operations',
  summary: "the deployment's worker versions and who polls them",
  description:
    "The deployment's worker versions: current, draining (pinned runs still open), drained; and how many of each version's workers poll the task queue now.",
  examples: ['thoughtline versions --json'],
  args: [],
  options: { json: flag('print the versions as JSON') },
  run: async (l) => printVersions({ json: l.flag('json') }),
};
