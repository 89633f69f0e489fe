import os from 'node:os';

/** The machine's CPU time so far, in ms summed over its cores: busy (user, nice, system, irq) and all. */
export interface MachineCpu {
  busyMs: number;
  totalMs: number;
}

export function machineCpu(): MachineCpu {
  let busyMs = 0;
  let totalMs = 0;
  for (const { times } of os.cpus()) {
    const busy = times.user + times.nice + times.sys + times.irq;
    busyMs += busy;
    totalMs += busy + times.idle;
  }
  return { busyMs, totalMs };
}
