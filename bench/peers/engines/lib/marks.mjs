import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

/**
 * Step timing marks, shared by every engine: each model or tool step appends a `start` line as
 * its body begins and an `end` line as it returns, to `<dir>/<run>.jsonl`. A file (not memory)
 * so marks survive a killed worker and come from any process; the append costs microseconds,
 * the same on every engine. Times are epoch milliseconds with sub-millisecond precision.
 */
export function createMarks(dir) {
  fs.mkdirSync(dir, { recursive: true });
  return {
    /** kind: 'model' (index 0 … iterations) or 'tool' (index 1 … iterations). */
    mark(runId, kind, index, phase) {
      const line = JSON.stringify({ kind, index, phase, t: now(), pid: process.pid });
      fs.appendFileSync(path.join(dir, `${fileName(runId)}.jsonl`), `${line}\n`);
    },
  };
}

export const now = () => performance.timeOrigin + performance.now();

/** Run ids may hold slashes or colons; the file name keeps only safe characters. */
export const fileName = (runId) => runId.replace(/[^A-Za-z0-9_.-]/g, '_');
