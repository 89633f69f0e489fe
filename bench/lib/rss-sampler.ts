import fs from 'node:fs';

export interface RssSampler {
  /** Peak resident set so far (VmHWM), in bytes; undefined where /proc is not available. */
  peakBytes(): number | undefined;
  /** [seconds since start, RSS in MB], one a second. */
  timeline(): Array<[number, number]>;
  stop(): void;
}

/** A field of /proc/<pid>/status in kB (VmRSS, VmHWM, RssAnon…); undefined once the process is gone. */
export function readKb(pid: number, field: string): number | undefined {
  try {
    const line = fs
      .readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return line ? Number(line.split(/\s+/)[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Watches another process's memory from outside (Linux), so a crash still leaves a reading. */
export function sampleRss(pid: number, everyMs = 1_000): RssSampler {
  const started = Date.now();
  let peakKb: number | undefined;
  const points: Array<[number, number]> = [];
  const tick = (): void => {
    const hwm = readKb(pid, 'VmHWM');
    if (hwm !== undefined) peakKb = Math.max(peakKb ?? 0, hwm);
    const rss = readKb(pid, 'VmRSS');
    if (rss !== undefined) points.push([Math.round((Date.now() - started) / 100) / 10, Math.round((rss * 1024) / 1e6)]);
  };
  tick();
  const timer = setInterval(tick, everyMs);
  return {
    peakBytes: () => (tick(), peakKb === undefined ? undefined : peakKb * 1024),
    timeline: () => points,
    stop: () => clearInterval(timer),
  };
}
