import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const RELATIVE = 'scripts/ensure-debian-package.sh';
/** Beside the repository's test/ folder, or (compiled into the bench's output) under the working directory. */
const SCRIPT =
  [path.resolve(__dirname, '../..', RELATIVE), path.resolve(RELATIVE)].find((file) => fs.existsSync(file)) ?? RELATIVE;

/**
 * The absolute path of `program`, installing its Debian package(s) first when it is missing, so
 * a test on a fresh machine needs nothing by hand. Throws with the installer's output otherwise.
 */
export function ensureDebianProgram(program: string, ...packages: string[]): string {
  execFileSync('bash', [SCRIPT, program, ...(packages.length ? packages : [program])], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 600_000,
  });
  return execFileSync('bash', ['-c', `command -v ${JSON.stringify(program)}`], { encoding: 'utf8' }).trim();
}
