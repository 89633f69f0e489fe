import fs from 'node:fs';
import path from 'node:path';
import { EvalCase } from '../../src/domain/evaluation';
import { caseAgentInput } from '../../src/workflows/eval/case-agent-input';

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

/** A case's run input exactly as the evaluation starts it (no base input, no budget grant). */
export function caseInput(c: EvalCase): Record<string, unknown> {
  return caseAgentInput(undefined, { id: 'offline' }, c, {}) as Record<string, unknown>;
}
