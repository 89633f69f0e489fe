import fs from 'node:fs';

/** Socket inodes listening on TCP `port` (IPv4 and IPv6), from /proc/net. */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // cols[1] local address "ADDR:PORT", cols[3] state (0A = LISTEN), cols[9] inode.
      if (cols[1]?.endsWith(`:${portHex}`) && cols[3] === '0A' && cols[9]) inodes.add(cols[9]);
    }
  }
  return inodes;
}

/**
 * Pid of the process listening on TCP `port` on this machine, to tell people which process to
 * stop. Linux only (reads /proc); undefined elsewhere, or when the process is not ours to see.
 */
export function findListeningPid(port: number): number | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode && inodes.has(inode)) return Number(pid);
      } catch {
        // The fd closed while we looked.
      }
    }
  }
  return undefined;
}
