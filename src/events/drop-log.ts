/** How often a bus reports the same kind of trouble at most. */
const REPORT_EVERY_MS = 60_000;

export interface DropLog {
  /** Counts `count` lost events of one kind; reports the counts at most once a minute. */
  drop(count: number, what: string): void;
  /** Reports a problem (a failed request, a lost connection) at most once a minute. */
  note(problem: string): void;
  /** Every event dropped so far. */
  total(): number;
  /** Reports counts not reported yet (on close). */
  flush(): void;
}

/**
 * Drops are expected under load (delivery is at most once), so they are counted, not logged one
 * by one: a bus that loses a thousand deltas a second writes one line a minute.
 */
export function createDropLog(
  name: string,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): DropLog {
  const counts = new Map<string, number>();
  let total = 0;
  let lastDropReport = 0;
  let lastNote = 0;
  const report = (): void => {
    if (counts.size === 0) return;
    log(`[${name}] dropped ${[...counts].map(([what, n]) => `${n} ${what}`).join(', ')} (${total} in all)`);
    counts.clear();
    lastDropReport = Date.now();
  };
  return {
    drop(count, what) {
      total += count;
      counts.set(what, (counts.get(what) ?? 0) + count);
      if (Date.now() - lastDropReport >= REPORT_EVERY_MS) report();
    },
    note(problem) {
      if (Date.now() - lastNote < REPORT_EVERY_MS) return;
      lastNote = Date.now();
      log(`[${name}] ${problem}`);
    },
    total: () => total,
    flush: report,
  };
}
