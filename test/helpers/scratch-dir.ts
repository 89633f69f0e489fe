import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where memory-backed scratch space lives on Linux; absent elsewhere, where the OS's folder serves. */
const MEMORY_BACKED = '/dev/shm';
/** Room left for the rest of the machine: an install of the packed package writes about 370 MB. */
const MIN_FREE_BYTES = 4 * 1024 ** 3;
/** The run's memory-backed folder, made by test/global-setup.ts when the machine has room. */
export const SCRATCH_ROOT_VARIABLE = 'THOUGHTLINE_TEST_SCRATCH';

/**
 * A new temporary directory for a project npm installs into (25,000 files): in the run's
 * memory-backed folder when it has one, else under the OS's temporary folder. The install is the
 * same either way; only the kernel's cost of writing it differs. Measured on the CI machine (2
 * cores, ext4): one install of the packed package with README's extras took 22.4 s of kernel time
 * under /tmp and 7.7 s under /dev/shm, out of 28 and 14 s of CPU. The caller removes it, as it
 * would any temporary directory; the run removes its folder at its end in any case.
 */
export function scratchDir(prefix: string): string {
  return fs.mkdtempSync(path.join(process.env[SCRATCH_ROOT_VARIABLE] || os.tmpdir(), prefix));
}

/** A new memory-backed folder for the run's scratch directories, or undefined where there is no room. */
export function memoryScratchRoot(): string | undefined {
  try {
    fs.accessSync(MEMORY_BACKED, fs.constants.W_OK);
    const stats = fs.statfsSync(MEMORY_BACKED);
    if (stats.bavail * stats.bsize < MIN_FREE_BYTES) return undefined;
    return fs.mkdtempSync(path.join(MEMORY_BACKED, 'thoughtline-suite-'));
  } catch {
    return undefined;
  }
}
