import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '../../src/tools/define-tool';
import { createOfflineModel } from '../../src/offline/offline-model';
import { ActionCounter, readRunFromTemporal } from '../../src/server/chain-store/read-run-from-temporal';
import { writeTemporalRun } from '../../src/server/chain-store/write-temporal-run';
import { openChainStore } from '../../src/store/open-chain-store';
import { loadDataset } from '../../src/eval/dataset';
import { EvaluationResult } from '../../src/domain/evaluation';
import { cliEnv, PROJECT_ROOT, runCli } from '../helpers/cli-process';
import { createHarness, useTestEnv } from '../helpers/temporal-env';

// Issue 68's "from production to evaluation": a run with a tool, found by the store's search,
// becomes a case; `thoughtline eval` replays it offline with the same outcome and passes; an agent
// that lost the tool the recorded replies call fails it, and the gate against the first says so.
const env = useTestEnv();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-case-from-run-'));
const TASK = 'Look up order A-1234 and tell me its status.';
const ORDER = { order: 'A-1234', status: 'shipped', carrier: 'Parcelway' };

/** The production agent's tool, here and in the tools file the CLI's evaluation worker loads. */
const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Looks up an order by its id: its status and carrier',
  input: z.object({ order: z.string() }),
  execute: ({ order }) => ({ ...ORDER, order }),
});

/** A tools file for `eval --tools`, with or without lookup_order (the agent "changed"). */
function toolsFile(name: string, withLookup: boolean): string {
  const file = path.join(dir, name);
  const require = (p: string) => `require(${JSON.stringify(path.join(PROJECT_ROOT, p))})`;
  fs.writeFileSync(
    file,
    `const { z } = ${require('node_modules/zod')};
const { defineTool } = ${require('dist/tools/define-tool')};
exports.tools = [
  ${
    withLookup
      ? `defineTool({ name: 'lookup_order', description: 'Looks up an order by its id: its status and carrier',
    input: z.object({ order: z.string() }), execute: ({ order }) => (${JSON.stringify(ORDER)}) }),`
      : ''
  }
  defineTool({ name: 'lookup_customer', description: 'Looks up a customer by id',
    input: z.object({ customer: z.string() }), execute: ({ customer }) => ({ customer }) }),
];
`,
  );
  return file;
}

let runId: string;
let answer: string;
const storeFile = path.join(dir, 'store.sqlite');
const dataset = path.join(dir, 'evals', 'production.jsonl');
const cli = () => cliEnv({ THOUGHTLINE_STORE: `sqlite:${storeFile}` });

beforeAll(async () => {
  // "Production": a run on a real worker, the offline model calling the tool, kept in the chain store.
  const h = await createHarness(env, { tools: [lookupOrder], models: { anthropic: createOfflineModel() } });
  const result = await h.worker.runUntil(async () => {
    const handle = await h.agents.start({ task: TASK, tools: ['lookup_order'] });
    runId = handle.workflowId;
    return h.agents.result(runId);
  });
  expect(result.terminationReason).toBe('success');
  answer = result.finalAnswer;
  const store = (await openChainStore({ kind: 'sqlite', file: storeFile }))!;
  try {
    const found = await readRunFromTemporal(h.agents, runId, 0, new ActionCounter());
    if (found.kind !== 'found') throw new Error(`the run is ${found.kind}`);
    await writeTemporalRun(store, found, await store.run(runId));
  } finally {
    await store.close();
  }
}, 180_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a production run becomes a replayed case, and the gate catches the agent that breaks it', () => {
  it('eval add --from-search finds the run in the store and writes its case and recording', async () => {
    const added = await runCli(['eval', 'add', dataset, '--from-search', 'A-1234'], cli());
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`Added run-${runId}: expects success and its answer`);
    expect(added.stdout).toContain('1 case added');
    const [evalCase] = loadDataset(dataset).cases;
    expect(evalCase).toMatchObject({
      id: `run-${runId}`,
      task: TASK,
      expect: {
        terminationReason: 'success',
        answer: { match: 'exact', value: answer.trim() },
        tools: { mode: 'exact', calls: [{ tool: 'lookup_order', arguments: { order: { equals: 'A-1234' } } }] },
      },
      input: { tools: ['lookup_order'] },
      replay: `recordings/run-${runId}.jsonl`,
    });
    const recording = fs
      .readFileSync(path.join(dir, 'evals', evalCase!.replay!), 'utf8')
      .trim()
      .split('\n');
    expect(recording.map((l) => (JSON.parse(l) as { kind?: string }).kind ?? 'reply')).toEqual([
      'reply',
      'reply',
      'tool',
    ]);

    // The same run again is refused by name, and a search finding it again skips it: nothing is written twice.
    const again = await runCli(['eval', 'add', dataset, '--from-run', runId], cli());
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${runId}: the dataset already has its case.`);
    const searchAgain = await runCli(['eval', 'add', dataset, '--from-search', 'A-1234'], cli());
    expect(searchAgain.code, searchAgain.stderr).toBe(0);
    expect(searchAgain.stderr).toContain(`skipped ${runId}: the dataset already has its case`);
    expect(loadDataset(dataset).cases).toHaveLength(1);
  }, 180_000);

  it('eval replays it offline with the same outcome; without the tool it fails and the gate exits 1 naming it', async () => {
    const first = path.join(dir, 'first');
    // No model key (cliEnv drops it): the case answers from its recording.
    const passed = await runCli(['eval', dataset, '--tools', toolsFile('tools.js', true), '--out', first], cli());
    expect(passed.code, `${passed.stdout}\n${passed.stderr}`).toBe(0);
    const result = EvaluationResult.parse(JSON.parse(fs.readFileSync(path.join(first, 'result.json'), 'utf8')));
    expect(result.results.map((r) => [r.caseId, r.terminationReason, r.passed])).toEqual([
      [`run-${runId}`, 'success', true],
    ]);

    const broken = await runCli(
      [
        'eval',
        dataset,
        '--tools',
        toolsFile('changed-tools.js', false),
        '--baseline',
        path.join(first, 'result.json'),
        '--out',
        path.join(dir, 'second'),
      ],
      cli(),
    );
    expect(broken.code, `${broken.stdout}\n${broken.stderr}`).toBe(1);
    expect(broken.stdout).toContain('Regression gate against');
    expect(broken.stdout).toContain(
      `case run-${runId} passed its one run in the baseline and fails its one run now: termination_accuracy: ended error; expected success`,
    );
  }, 400_000);
});
