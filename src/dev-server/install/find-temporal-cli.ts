import fs from 'node:fs';
import path from 'node:path';
import { TEMPORAL_EXE, thoughtlinePaths } from '../project-paths';

export type CliSource = 'THOUGHTLINE_TEMPORAL_CLI' | 'PATH' | '.thoughtline/bin';

export interface FoundCli {
  path: string;
  source: CliSource;
}

export function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** First executable `temporal` in the directories of `pathVar` (a PATH-style list). */
export function findOnPath(pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.resolve(dir, TEMPORAL_EXE);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Looks for an existing binary, in order: THOUGHTLINE_TEMPORAL_CLI, `temporal` on PATH,
 * <projectRoot>/.thoughtline/bin. Reads only the `env` it is given. Never installs.
 * An explicit THOUGHTLINE_TEMPORAL_CLI that is not executable throws rather than falling through,
 * so a typo in it is not silently replaced by another binary.
 */
export function findTemporalCli(opts: { projectRoot: string; env?: NodeJS.ProcessEnv }): FoundCli | undefined {
  const env = opts.env ?? process.env;
  const explicit = env.THOUGHTLINE_TEMPORAL_CLI;
  if (explicit) {
    const resolved = path.resolve(explicit);
    if (!isExecutableFile(resolved)) {
      throw new Error(
        `THOUGHTLINE_TEMPORAL_CLI is set to '${explicit}', which is not an executable file; fix or unset it`,
      );
    }
    return { path: resolved, source: 'THOUGHTLINE_TEMPORAL_CLI' };
  }
  const onPath = findOnPath(env.PATH);
  if (onPath) return { path: onPath, source: 'PATH' };
  const local = thoughtlinePaths(opts.projectRoot).binary;
  if (isExecutableFile(local)) return { path: local, source: '.thoughtline/bin' };
  return undefined;
}
