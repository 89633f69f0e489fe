import { spawnSync } from 'node:child_process';

/** Where `unshare` (util-linux) is looked for: fixed paths, never the worker's PATH. */
const UNSHARE_PATHS = ['/usr/bin/unshare', '/bin/unshare'];
/**
 * Tried in order. A new user namespace first: the child then holds no capability on the host and
 * runs as an unmapped user, and it needs no privilege. `--net` alone works where user namespaces are
 * refused but the worker may create a network namespace (root, CAP_SYS_ADMIN).
 */
const FLAG_SETS = [['--user', '--net'], ['--net']];

/** How code processes are started in an empty network namespace, or why they cannot be. */
export type NetworkNamespace = { available: true; prefix: string[] } | { available: false; reason: string };

let detected: NetworkNamespace | undefined;

/**
 * Whether this machine can start a process in an empty network namespace: found once per worker
 * process (one `unshare … node --version`, about 10 ms) and kept. Without one, the in-process
 * layers are the network barrier, and the tool's description and a process warning say so.
 */
export function networkNamespace(): NetworkNamespace {
  detected ??= detect();
  return detected;
}

function detect(): NetworkNamespace {
  if (process.platform !== 'linux')
    return { available: false, reason: `${process.platform} has no network namespaces` };
  const unshare = UNSHARE_PATHS.find(
    (candidate) => spawnSync(candidate, ['--version'], { stdio: 'ignore' }).status === 0,
  );
  if (!unshare) return { available: false, reason: `unshare (util-linux) is not in ${UNSHARE_PATHS.join(' or ')}` };
  for (const flags of FLAG_SETS) {
    const probe = spawnSync(unshare, [...flags, '--', process.execPath, '--version'], { stdio: 'ignore', env: {} });
    if (probe.status === 0) return { available: true, prefix: [unshare, ...flags, '--'] };
  }
  return {
    available: false,
    reason: `${unshare} --user --net and --net are refused here (no user namespaces, no CAP_SYS_ADMIN)`,
  };
}

/** Says once per worker process that code runs without the OS network barrier, and why. */
export function warnWithoutNetworkNamespace(reason: string): void {
  if (warned) return;
  warned = true;
  process.emitWarning(
    `code_run: no empty network namespace for code processes (${reason}); the network is denied inside the process only.`,
    { code: 'THOUGHTLINE_CODE_RUN_NO_NETNS' },
  );
}
let warned = false;
