import fs from 'node:fs';
import path from 'node:path';

/** One line of a run's marks file (bench/peers/engines/lib/marks.mjs). */
export interface Mark {
  kind: 'model' | 'tool';
  index: number;
  phase: 'start' | 'end';
  t: number;
  pid: number;
}

/** A step of the loop in run order: step 1 is model call 0, step 2 tool call 1, step 3 model call 1, … */
export interface Step {
  kind: 'model' | 'tool';
  index: number;
  /** Its first start and its last end: a step tried again spans both attempts. */
  start: number;
  end: number;
  starts: number;
  ends: number;
}

export const marksFile = (dir: string, runId: string): string =>
  path.join(dir, `${runId.replace(/[^A-Za-z0-9_.-]/g, '_')}.jsonl`);

export function readMarks(dir: string, runId: string): Mark[] {
  const file = marksFile(dir, runId);
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Mark);
}

/**
 * The run's 2K + 1 steps in order, or the reason the marks do not show the whole loop (a step
 * missing, one never ended): then the engine did not do the work, and its figures are refused.
 */
export function stepsOf(marks: readonly Mark[], iterations: number): { steps: Step[] } | { problem: string } {
  const steps: Step[] = [];
  for (let k = 1; k <= 2 * iterations + 1; k++) {
    const kind = k % 2 === 1 ? 'model' : 'tool';
    const index = kind === 'model' ? (k - 1) / 2 : k / 2;
    const mine = marks.filter((m) => m.kind === kind && m.index === index);
    const starts = mine.filter((m) => m.phase === 'start');
    const ends = mine.filter((m) => m.phase === 'end');
    if (!starts.length || !ends.length)
      return { problem: `${kind} step ${index} has ${starts.length} start and ${ends.length} end marks` };
    steps.push({
      kind,
      index,
      start: Math.min(...starts.map((m) => m.t)),
      end: Math.max(...ends.map((m) => m.t)),
      starts: starts.length,
      ends: ends.length,
    });
  }
  return { steps };
}
