import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EvaluationResult } from '../../src/domain/evaluation';
import { loadDataset } from '../../src/eval/dataset';
import { cliEnv, runCli } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';
import { ANSWER, ORDER, useImportedOrderRun } from './imported-order-run';

// Issue 79, "imported chains replay": `eval add --from-run import:…` makes an imported run (no
// Temporal history) a case whose recording is rebuilt from its steps, and `thoughtline eval`
// replays it offline and passes. Slow stage: the evaluation's own worker bundles the workflows (~13 s).
const env = useTestEnv();
const x = useImportedOrderRun(env);

describe('an imported chain becomes an evaluation case that replays offline', () => {
  it('eval add --from-run import:… writes the case and its recording; thoughtline eval replays it and passes', async () => {
    const dataset = path.join(x.dir, 'evals', 'production.jsonl');
    const cli = cliEnv({ THOUGHTLINE_STORE: `sqlite:${x.storeFile}` });
    const added = await runCli(['eval', 'add', dataset, '--from-run', x.importId], cli);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain("rebuilt from the imported chain's steps");
    const [evalCase] = loadDataset(dataset).cases;
    expect(evalCase).toMatchObject({
      task: x.task,
      expect: {
        terminationReason: 'success',
        answer: { match: 'exact', value: ANSWER },
        tools: { mode: 'exact', calls: [{ tool: 'lookup_order', arguments: { order: { equals: 'A-1234' } } }] },
      },
      tags: ['from-run', 'from-import', 'rebuilt-from-steps'],
    });
    const recording = fs
      .readFileSync(path.join(x.dir, 'evals', evalCase!.replay!), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind?: string; result?: unknown });
    expect(recording.map((l) => l.kind ?? 'reply')).toEqual(['reply', 'reply', 'tool']);
    expect(recording[2]!.result).toEqual(ORDER);

    const out = path.join(x.dir, 'eval-out');
    // No model key (cliEnv drops it): the case answers from its recording.
    const passed = await runCli(['eval', dataset, '--tools', x.toolsFile(), '--out', out], cli);
    expect(passed.code, `${passed.stdout}\n${passed.stderr}`).toBe(0);
    const result = EvaluationResult.parse(JSON.parse(fs.readFileSync(path.join(out, 'result.json'), 'utf8')));
    expect(result.results.map((r) => [r.caseId, r.terminationReason, r.passed])).toEqual([
      [evalCase!.id, 'success', true],
    ]);
  }, 180_000);
});
