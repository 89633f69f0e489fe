// The run list's columns and their order: pure, so node tests run it (test/viewer/viewer-pure.test.ts).
import { endingBadge } from './format.js';

/**
 * What each sortable column sorts by, from a row of GET /v1/runs. A run without the value (a
 * running run has no time taken, the end user's view no cost) sorts after every run with one.
 */
export const RUN_SORT_KEYS = {
  status: (run) => endingBadge(run).text,
  agent: (run) => run.agentName,
  task: (run) => run.task,
  took: (run) => run.durationMs,
  iterations: (run) => run.iterations,
  tokens: (run) => run.tokens,
  cost: (run) => run.costUsd,
  model: (run) => run.model,
  started: (run) => run.startedAt,
};

/** The columns GET /v1/runs sorts on the server (from the chain store), by the API's names. */
const SERVER_SORT = {
  took: 'took',
  iterations: 'iterations',
  tokens: 'tokens',
  cost: 'cost',
  model: 'model',
  started: 'started',
};

/**
 * The query that asks the server for a sort: none for its own order (newest start first) or for a
 * column only the loaded rows can be sorted by (status, agent, task).
 */
export function serverOrder({ key, dir }) {
  if (!Object.hasOwn(SERVER_SORT, key) || (key === 'started' && dir === 'desc')) return {};
  return { sort: SERVER_SORT[key], order: dir };
}

/** The rows sorted by one column, `dir` 'asc' or 'desc'; stable, missing values last either way. */
export function sortRuns(runs, key, dir) {
  const read = RUN_SORT_KEYS[key];
  if (!read) return [...runs];
  const sign = dir === 'desc' ? -1 : 1;
  return runs
    .map((run, index) => ({ run, index, value: read(run) }))
    .sort((a, b) => {
      const missingA = a.value === undefined || a.value === null || a.value === '';
      const missingB = b.value === undefined || b.value === null || b.value === '';
      if (missingA !== missingB) return missingA ? 1 : -1;
      if (!missingA && a.value !== b.value) {
        const order =
          typeof a.value === 'number' && typeof b.value === 'number'
            ? a.value - b.value
            : String(a.value).localeCompare(String(b.value));
        if (order !== 0) return sign * order;
      }
      return a.index - b.index;
    })
    .map(({ run }) => run);
}

/** Whether any row carries spend: the end user's view has none, and then the list has no spend columns. */
export const showsSpend = (runs) => runs.some((run) => run.tokens !== undefined || run.costUsd !== undefined);
