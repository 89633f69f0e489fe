import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isOurProcess } from '../lifecycle/cluster-state';
import type { ServerRole } from './cluster-server-config';

const STOP_GRACE_MS = 20_000;

/**
 * Spawns one server role (`temporal-server --config-file … start --service <role>`) in its own
 * process group, detached: it outlives the command that started it, and `stop` ends it by pid.
 * Its output goes to <logDir>/<role>.log.
 */
export function spawnServerRole(o: { server: string; configFile: string; role: ServerRole; logDir: string }): number {
  fs.mkdirSync(o.logDir, { recursive: true });
  const logFd = fs.openSync(path.join(o.logDir, `${o.role}.log`), 'a');
  const child = spawn(o.server, ['--config-file', o.configFile, '--allow-no-auth', 'start', '--service', o.role], {
    detached: true,
    stdio: ['ignore', logFd, logFd],
  });
  fs.closeSync(logFd);
  child.unref();
  if (child.pid === undefined) throw new Error(`could not start ${o.server} for the ${o.role} role`);
  return child.pid;
}

/** SIGTERM to each pid that is still ours, SIGKILL to any left after the grace period; resolves once all are gone. */
export async function stopServerRoles(pids: readonly number[], marker: string, graceMs = STOP_GRACE_MS): Promise<void> {
  const ours = pids.filter((pid) => isOurProcess(pid, marker));
  for (const pid of ours) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  let left = ours;
  while (left.length > 0) {
    if (Date.now() > deadline) for (const pid of left) signal(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));
    left = left.filter((pid) => isOurProcess(pid, marker));
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}
