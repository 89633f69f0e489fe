// Keeps the run list current: the first page is read again every few seconds while the tab is
// shown, and merged into what is loaded. Pure except for the timer.

/** How often the list re-reads its first page. */
export const LIST_REFRESH_MS = 5_000;

/**
 * The loaded rows (more than the first page) with a fresh first page (newest first) merged in: the
 * fresh rows as they are now, then the rows of later pages already loaded (older than the first
 * page's oldest). A loaded row the first page's span no longer holds left the filter: dropped.
 */
export function mergeFirstPage(loaded, fresh) {
  const ids = new Set(fresh.map((run) => run.runId));
  const oldest = fresh.at(-1)?.startedAt;
  return [
    ...fresh,
    ...loaded.filter((run) => !ids.has(run.runId) && (oldest === undefined || String(run.startedAt) < oldest)),
  ];
}

/** Calls `tick` every `everyMs` while the document is visible; returns the stop function. */
export function everyWhileVisible(tick, everyMs = LIST_REFRESH_MS) {
  let timer;
  let stopped = false;
  const schedule = () => {
    if (!stopped) timer = setTimeout(run, everyMs);
  };
  const run = async () => {
    if (document.visibilityState === 'visible') await tick();
    schedule();
  };
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
