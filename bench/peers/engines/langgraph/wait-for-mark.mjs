import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileName } from '../lib/marks.mjs';

/**
 * Resolves when the run's marks file holds the given mark. Polls the file (written by another
 * process) every millisecond; throws what `failure()` returns once it returns one (e.g. that
 * process died first).
 */
export async function waitForMark({ marksDir, runId, kind, index, phase }, failure) {
  const file = path.join(marksDir, `${fileName(runId)}.jsonl`);
  for (;;) {
    const failed = failure();
    if (failed) throw failed;
    if (readMarks(file).some((m) => m.kind === kind && m.index === index && m.phase === phase)) return;
    await sleep(1);
  }
}

function readMarks(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') return [];
    throw err;
  }
  // The last line may be half written; only whole lines count.
  return text
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line));
}
