import { readRegularFile } from '../files/read-regular-file';
import { RegularFileError } from '../files/regular-file-error';
import os from 'node:os';
import path from 'node:path';
import { TemporalConfigError } from './temporal-config-error';

/** The TOML profile file Temporal's CLI and SDKs share, as found for one environment. */
export interface TemporalConfigFile {
  path: string;
  /** How the path was chosen, for messages: 'TEMPORAL_CONFIG_FILE' or 'the default location'. */
  from: string;
  /** The file's text; undefined when the default file does not exist (which is fine). */
  text?: string;
}

/**
 * Temporal's default location: $XDG_CONFIG_HOME (or ~/.config)/temporalio/temporal.toml on Linux,
 * ~/Library/Application Support/temporalio/temporal.toml on macOS, %APPDATA%\temporalio\temporal.toml
 * on Windows. Undefined when the environment names no home.
 */
export function defaultConfigFilePath(env: NodeJS.ProcessEnv): string | undefined {
  const platform = os.platform();
  const dir =
    platform === 'win32'
      ? env.APPDATA
      : platform === 'darwin'
        ? env.HOME && path.join(env.HOME, 'Library', 'Application Support')
        : env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME)
          ? env.XDG_CONFIG_HOME
          : env.HOME && path.join(env.HOME, '.config');
  return dir ? path.join(dir, 'temporalio', 'temporal.toml') : undefined;
}

/** Largest Temporal config file read: a few profiles of TOML. */
const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/**
 * Reads the profile file: TEMPORAL_CONFIG_FILE, which must exist, else the default location,
 * which may not. Unlike Temporal's own loader, a TEMPORAL_CONFIG_FILE that names no file is an
 * error: a typo there would otherwise connect somewhere else without a word.
 */
export function readTemporalConfigFile(env: NodeJS.ProcessEnv): TemporalConfigFile | undefined {
  const named = env.TEMPORAL_CONFIG_FILE || undefined;
  const file = named ?? defaultConfigFilePath(env);
  if (file === undefined) return undefined;
  const from = named ? 'TEMPORAL_CONFIG_FILE' : 'the default location';
  // The one device read: /dev/null, the usual way to say "no profiles here", is an empty file.
  if (file === '/dev/null') return { path: file, from, text: '' };
  try {
    return { path: file, from, text: readRegularFile(file, MAX_CONFIG_FILE_BYTES).toString('utf8') };
  } catch (err) {
    if (!(err instanceof RegularFileError)) throw err;
    if (err.problem === 'missing' && !named) return { path: file, from };
    const why = err.message;
    throw new TemporalConfigError(
      named ? 'TEMPORAL_CONFIG_FILE' : file,
      named
        ? `TEMPORAL_CONFIG_FILE is set to '${file}', which cannot be read (${why}): set it to your temporal.toml, or unset it`
        : `the Temporal config file ${file} (${from}) cannot be read (${why}): fix its permissions, or set TEMPORAL_CONFIG_FILE to another file`,
    );
  }
}
