import fs from 'node:fs';
import path from 'node:path';
import { EvalCase } from '../../src/shared/eval';

export const DATASET = path.resolve(__dirname, '../../eval/loop.jsonl');

/** The dataset's cases, each checked by EvalCase; an error names the line. */
export function readDataset(file = DATASET): EvalCase[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line, i) => ({ line, number: i + 1 }))
    .filter(({ line }) => line.trim() !== '')
    .map(({ line, number }) => {
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch (err) {
        throw new Error(`${path.basename(file)}:${number}: not JSON: ${(err as Error).message}`);
      }
      const parsed = EvalCase.safeParse(json);
      if (!parsed.success) throw new Error(`${path.basename(file)}:${number}: ${parsed.error.message}`);
      return parsed.data;
    });
}

/**
 * A case's run input as an evaluation starts it: the context before the task, the limits as the
 * run's own fields, then the case's input; a replayed case names its recording's model.
 */
export function caseInput(c: EvalCase): Record<string, unknown> {
  return {
    task: c.context ? `${c.context}\n\n${c.task}` : c.task,
    ...c.limits,
    ...c.input,
    ...(c.replay ? { model: { provider: 'replay', model: c.id } } : {}),
  };
}
