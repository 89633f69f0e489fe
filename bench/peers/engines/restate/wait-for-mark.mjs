import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileName } from '../lib/marks.mjs';

/**
 * Resolves when the run's marks file holds the given mark. Polls every millisecond, reading
 * only when the file grew: the file is written by another process.
 */
export async function waitForMark(marksDir, runId, { kind, index, phase }, { timeoutMs = 120_000 } = {}) {
  const file = path.join(marksDir, `${fileName(runId)}.jsonl`);
  const deadline = Date.now() + timeoutMs;
  let size = 0;
  for (;;) {
    const now = fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    if (now !== size) {
      size = now;
      const found = fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .slice(0, -1) // the last piece may be a line still being written
        .map((line) => JSON.parse(line))
        .some((m) => m.kind === kind && m.index === index && m.phase === phase);
      if (found) return;
    }
    if (Date.now() > deadline) throw new Error(`no ${kind} ${index} ${phase} mark for ${runId} after ${timeoutMs} ms`);
    await sleep(1);
  }
}
