import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileName } from '../lib/marks.mjs';

/** How often the marks file is read: the slow tool sleeps far longer, so 2 ms costs nothing. */
const POLL_MS = 2;

/** Resolves once `<dir>/<run>.jsonl` holds the given mark (written by any process). */
export async function waitForMark(dir, runId, { kind, index, phase }, signal) {
  const file = path.join(dir, `${fileName(runId)}.jsonl`);
  while (!signal?.aborted) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (!line) continue;
      const m = JSON.parse(line);
      if (m.kind === kind && m.index === index && m.phase === phase) return true;
    }
    await sleep(POLL_MS);
  }
  return false;
}
