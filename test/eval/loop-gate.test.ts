import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDataset, type LoadedDataset } from '../../src/eval/dataset';
import { loopDatasetTools } from '../../src/eval/loop-dataset';
import { createEvalReplay } from '../../src/eval/replay';
import { createOfflineModel } from '../../src/offline/offline-model';
import { EvaluationResult, type EvalCase, type EvaluationInputInit } from '../../src/domain/evaluation';
import { compareWithBaseline } from '../../src/domain/evaluation/gate';
import { WORKFLOW_BUNDLER_OPTIONS, WORKFLOWS_PATH } from '../../src/worker';
import { EVALUATION_WORKFLOW } from '../../src/workflows/eval/eval-messages';
import { PROJECT_ROOT } from '../helpers/cli-process';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';

// CI's regression gate for the loop (scripts/eval-gate.sh), run here through evaluationWorkflow on
// the suite's server: today's loop passes against the stored baseline, and a loop whose stall
// detector was broken on purpose fails it, naming the cases that show it.
const DATASET = path.join(PROJECT_ROOT, 'eval/loop.jsonl');
const BASELINE = EvaluationResult.parse(
  JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'eval/baselines/loop-offline.json'), 'utf8')),
);
const BROKEN_STALL_DETECTOR = path.join(__dirname, 'broken-loop/stall-detector-never-stalls.ts');

const env = useTestEnv();
const dataset: LoadedDataset = loadDataset(DATASET);
let evaluations = 0;

/** A worker like `thoughtline eval`'s own: the offline model as Claude, the dataset's tools, its recordings replayed. */
async function evaluationWorker(evaluationId: string, workflowBundlePath?: string): Promise<AgentHarness> {
  const replay = createEvalReplay({ evaluationId, cases: dataset.replays });
  return createHarness(env, {
    tools: replay.wrapTools(loopDatasetTools),
    // The baseline's variant asks for `offline/offline-model`, as `thoughtline eval` names it without a key.
    models: { anthropic: createOfflineModel(), offline: createOfflineModel(), replay: replay.provider },
    ...(workflowBundlePath ? { workflowBundlePath } : {}),
  });
}

/** The evaluation of `cases` as the CLI starts it (the baseline's one variant), on a worker of that bundle. */
async function evaluate(cases: readonly EvalCase[], workflowBundlePath?: string): Promise<EvaluationResult> {
  const evaluationId = `loop-gate-${Date.now()}-${++evaluations}`;
  const h = await evaluationWorker(evaluationId, workflowBundlePath);
  const input: EvaluationInputInit = {
    name: dataset.name,
    dataset: { name: dataset.name, sha256: dataset.sha256 },
    cases: [...cases],
    variants: BASELINE.variants,
    concurrency: 4,
  };
  return h.worker.runUntil(async () =>
    EvaluationResult.parse(
      await env.client.workflow.execute(EVALUATION_WORKFLOW, {
        taskQueue: h.taskQueue,
        workflowId: evaluationId,
        args: [input],
      }),
    ),
  );
}

/** The baseline cut down to `cases`, so a partial evaluation is compared case for case. */
function baselineOf(cases: readonly EvalCase[]): EvaluationResult {
  const ids = new Set(cases.map((c) => c.id));
  return {
    ...BASELINE,
    cases: BASELINE.cases.filter((c) => ids.has(c.id)),
    results: BASELINE.results.filter((r) => ids.has(r.caseId)),
  };
}

let brokenBundle: string;
beforeAll(async () => {
  // The real workflows, with every import of the stall detector answered by the broken one.
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    ...WORKFLOW_BUNDLER_OPTIONS,
    webpackConfigHook: (config) => {
      const withDefaults = WORKFLOW_BUNDLER_OPTIONS.webpackConfigHook!(config);
      return {
        ...withDefaults,
        plugins: [
          ...(withDefaults.plugins ?? []),
          {
            apply(compiler) {
              new compiler.webpack.NormalModuleReplacementPlugin(/(^|\/)stall-detector$/, (resource) => {
                if (!resource.context.includes('broken-loop')) resource.request = BROKEN_STALL_DETECTOR;
              }).apply(compiler);
            },
          },
        ],
      };
    },
  });
  const dir = fs.mkdtempSync(path.join(PROJECT_ROOT, '.thoughtline/tmp/broken-loop-'));
  brokenBundle = path.join(dir, 'workflow-bundle.js');
  fs.writeFileSync(brokenBundle, code);
}, 180_000);
afterAll(() => {
  if (brokenBundle) fs.rmSync(path.dirname(brokenBundle), { recursive: true, force: true });
});

describe("the loop's regression gate (eval/loop.jsonl on the offline model)", () => {
  it('passes today: every case of the dataset passes, and nothing regressed against the baseline', async () => {
    const result = await evaluate(dataset.cases);
    const failed = result.results.filter((r) => !r.passed).map((r) => `${r.caseId}: ${r.scores.map((s) => s.why)}`);
    expect(failed).toEqual([]);
    expect(result.results).toHaveLength(dataset.cases.length);
    const gate = compareWithBaseline(BASELINE, result);
    expect(gate.regressions).toEqual([]);
    expect(gate.passed).toBe(true);
  }, 180_000);

  it('fails when the stall detector is broken on purpose, naming the stall cases', async () => {
    const stallCases = dataset.cases.filter((c) => c.tags.includes('stall'));
    expect(stallCases.length).toBeGreaterThan(0);
    const result = await evaluate(stallCases, brokenBundle);
    const gate = compareWithBaseline(baselineOf(stallCases), result);
    expect(gate.passed).toBe(false);
    const flipped = gate.regressions.flatMap((r) => (r.kind === 'stable_flip' ? [r.caseId] : []));
    expect(flipped).toEqual(expect.arrayContaining([stallCases[0]!.id]));
    expect(flipped.every((id) => stallCases.some((c) => c.id === id))).toBe(true);
  }, 240_000);
});
