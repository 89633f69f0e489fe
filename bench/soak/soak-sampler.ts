import fs from 'node:fs';
import { readKb } from '../lib/rss-sampler';
import type { ProcessMinute } from './soak-report-types';

/**
 * Reads each watched process's memory and CPU from /proc once a minute. A process is named once
 * per pid: a replacement (a restarted serve, a new frontend) is a new name (`serve-1.2`), so the
 * growth of one process is never confused with a restart's reset.
 */
export interface ProcessSampler {
  /** One reading of every process `pids()` names now; CPU since the last reading. */
  sample(): Record<string, ProcessMinute>;
}

const TICKS_PER_S = 100;

/**
 * utime + stime of a process, in clock ticks; with `exitedChildren`, also cutime + cstime, the
 * time of children it has reaped (a PostgreSQL backend that ended during the minute).
 */
function cpuTicks(pid: number, exitedChildren = false): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return exitedChildren ? own + Number(fields[13]) + Number(fields[14]) : own;
  } catch {
    return undefined;
  }
}

/** The process and its descendants (PostgreSQL's backends are children of its postmaster). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone while listed.
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i += 1) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/**
 * `pids()` gives the processes to read now by role (`worker-a1`, `postgres`); a role may name a
 * tree, whose anonymous memory is summed (RssAnon: a backend's shared buffers are not its own).
 */
export function processSampler(
  pids: () => Record<string, { pid: number; tree?: boolean }>,
  // A tick is 10 ms: over a span of a few ms (the soak's last reading, taken just after a minute's),
  // one tick read as 40% of a core. A shorter span gives no CPU figure and keeps its start for the next.
  { minCpuSpanMs = 5_000 }: { minCpuSpanMs?: number } = {},
): ProcessSampler {
  const names = new Map<string, string>();
  const taken = new Map<string, number>();
  const lastTicks = new Map<string, { ticks: number; at: number }>();
  const nameOf = (role: string, pid: number): string => {
    const key = `${role}:${pid}`;
    const known = names.get(key);
    if (known) return known;
    const count = (taken.get(role) ?? 0) + 1;
    taken.set(role, count);
    const name = count === 1 ? role : `${role}.${count}`;
    names.set(key, name);
    return name;
  };
  return {
    sample() {
      const now = performance.now();
      const readings: Record<string, ProcessMinute> = {};
      for (const [role, { pid, tree }] of Object.entries(pids())) {
        const members = tree ? processTree(pid) : [pid];
        const kb = members.map((p) => readKb(p, tree ? 'RssAnon' : 'VmRSS'));
        const ticks = members.map((p, i) => cpuTicks(p, tree === true && i === 0));
        if (kb[0] === undefined) continue;
        const name = nameOf(role, pid);
        const total = ticks.reduce<number>((sum, t) => sum + (t ?? 0), 0);
        const before = lastTicks.get(name);
        const cpuPct =
          before !== undefined && now - before.at >= minCpuSpanMs
            ? Math.max(0, Math.round(((total - before.ticks) / TICKS_PER_S / ((now - before.at) / 1_000)) * 1_000) / 10)
            : undefined;
        if (before === undefined || cpuPct !== undefined) lastTicks.set(name, { ticks: total, at: now });
        readings[name] = {
          rssMb: Math.round(kb.reduce<number>((sum, k) => sum + (k ?? 0), 0) / 102.4) / 10,
          ...(cpuPct !== undefined ? { cpuPct } : {}),
        };
      }
      return readings;
    },
  };
}
