import fs from 'node:fs';

/** Linux's clock ticks a second for /proc's CPU times (USER_HZ): 100 on every mainstream build. */
const TICKS_PER_SECOND = 100;

/** Every process's name and CPU time so far (user + system, in ms), by pid, from /proc. */
export type ProcessCpu = Map<number, { program: string; cpuMs: number }>;

export function readProcessCpu(): ProcessCpu {
  const all: ProcessCpu = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split at the last ')'.
      const close = stat.lastIndexOf(')');
      const program = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      // Fields 14 and 15 of stat (utime, stime) are 11 and 12 here, counted from the state.
      const ticks = Number(fields[11]) + Number(fields[12]);
      all.set(Number(entry), { program, cpuMs: (ticks * 1000) / TICKS_PER_SECOND });
    } catch {
      // Gone between the listing and the read.
    }
  }
  return all;
}

/**
 * CPU spent between two readings, summed by program name (temporal-server, postgres, node, …),
 * largest first. A process that ended in between is missing: its share is not counted.
 */
export function cpuByProgram(before: ProcessCpu, after: ProcessCpu): Array<{ program: string; cpuMs: number }> {
  const sums = new Map<string, number>();
  for (const [pid, now] of after) {
    const spent = now.cpuMs - (before.get(pid)?.program === now.program ? before.get(pid)!.cpuMs : 0);
    if (spent > 0) sums.set(now.program, (sums.get(now.program) ?? 0) + spent);
  }
  return [...sums].map(([program, cpuMs]) => ({ program, cpuMs })).sort((a, b) => b.cpuMs - a.cpuMs);
}
