import fs from 'node:fs';

const TICKS_PER_SECOND = 100;
const PAGE_BYTES = 4096;

interface ProcStat {
  ppid: number;
  cpuMs: number;
  rssBytes: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(fields[1]),
      cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND,
      rssBytes: Number(fields[21]) * PAGE_BYTES,
    };
  } catch {
    return undefined;
  }
}

function allStats(): Map<number, ProcStat> {
  const stats = new Map<number, ProcStat>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = readStat(Number(entry));
    if (s) stats.set(Number(entry), s);
  }
  return stats;
}

/** `roots` and every process descended from them, now. */
function treeOf(roots: readonly number[], stats: Map<number, ProcStat>): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, s] of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  const out: number[] = [];
  const queue = roots.filter((r) => stats.has(r));
  while (queue.length) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

export interface TreeUsage {
  /** CPU time spent by the trees while watched (user + system), ms. */
  cpuMs: number;
  /** The largest sum of resident memory over the trees at any sample, bytes. */
  peakRssBytes: number;
}

/**
 * Samples the CPU and memory of process trees every `everyMs` (Linux /proc), so processes that
 * start and end meanwhile (workers, children) are counted up to their last sample. `roots` is
 * read at each sample: a tree can gain its root after watching starts (the engine's process).
 */
export function watchTrees(roots: () => readonly number[], everyMs = 100): { stop(): TreeUsage } {
  const firstCpu = new Map<number, number>();
  const lastCpu = new Map<number, number>();
  let peakRssBytes = 0;
  let atStart: Set<number> | undefined;
  const sample = (): void => {
    const stats = allStats();
    let rss = 0;
    for (const pid of treeOf(roots(), stats)) {
      const s = stats.get(pid)!;
      if (!firstCpu.has(pid)) firstCpu.set(pid, s.cpuMs);
      lastCpu.set(pid, s.cpuMs);
      rss += s.rssBytes;
    }
    peakRssBytes = Math.max(peakRssBytes, rss);
    atStart ??= new Set(lastCpu.keys());
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      sample();
      clearInterval(timer);
      let cpuMs = 0;
      // A process first seen mid-way started during the watch: all of its CPU counts.
      for (const [pid, last] of lastCpu) cpuMs += last - (atStart?.has(pid) ? firstCpu.get(pid)! : 0);
      return { cpuMs, peakRssBytes };
    },
  };
}
