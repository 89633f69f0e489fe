// Waits for one step mark to appear in a run's marks file (written by another process).
import { open } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileName } from '../lib/marks.mjs';

/**
 * Polls every few ms, so the kill lands early in the slow step; reads only what was appended
 * since the last poll, so a long run's file costs no more to watch than a short one's.
 */
export async function waitForMark(dir, runId, { kind, index, phase }, { timeoutMs, failed }) {
  const file = path.join(dir, `${fileName(runId)}.jsonl`);
  const deadline = Date.now() + timeoutMs;
  let offset = 0;
  let partial = '';
  while (Date.now() < deadline) {
    const failure = failed();
    if (failure) throw failure;
    const chunk = await readFrom(file, offset);
    offset += chunk.length;
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop();
    for (const line of lines) {
      const m = JSON.parse(line);
      if (m.kind === kind && m.index === index && m.phase === phase) return m;
    }
    await sleep(5);
  }
  throw new Error(`no ${kind} ${index} ${phase} mark for ${runId} within ${timeoutMs} ms`);
}

async function readFrom(file, offset) {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return Buffer.alloc(0); // not written yet
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.max(0, size - offset));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
