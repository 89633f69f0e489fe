import { execFileSync } from 'node:child_process';
import path from 'node:path';

const SCRIPT = path.resolve(__dirname, '../../scripts/ensure-debian-package.sh');

/**
 * The absolute path of `program`, installing its Debian package(s) first when it is missing, so
 * a test on a fresh machine needs nothing by hand. Throws with the installer's output otherwise.
 */
export function ensureDebianProgram(program: string, ...packages: string[]): string {
  execFileSync('bash', [SCRIPT, program, ...(packages.length ? packages : [program])], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 600_000 });
  return execFileSync('bash', ['-c', `command -v ${JSON.stringify(program)}`], { encoding: 'utf8' }).trim();
}
