import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { EvaluationResult } from '../../src/domain/evaluation';
import { cliEnv, runCli, spawnCli } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();
const taskQueue = `eval-cli-${randomUUID()}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-eval-command-'));
let worker: Worker;
let running: Promise<void>;

beforeAll(async () => {
  // A standing worker with a stand-in evaluationWorkflow: the command's own plumbing, without the engine.
  worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: inject('temporalNamespace'),
    taskQueue,
    workflowsPath: path.join(__dirname, 'eval-stub-workflow.ts'),
  });
  running = worker.run();
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('thoughtline eval, against a stand-in evaluationWorkflow on a standing worker', () => {
  const dataset = path.join(dir, 'loop.jsonl');
  fs.writeFileSync(
    dataset,
    '{"id":"weather","task":"Weather in Paris?"}\n{"id":"broken-tool","task":"Use the broken tool"}\n',
  );

  it('starts it, prints progress, writes the result and reports, and the gate fails on a case that broke', async () => {
    const first = path.join(dir, 'first');
    const run1 = await runCli(
      ['eval', dataset, '--no-worker', '--out', first],
      cliEnv({ THOUGHTLINE_TASK_QUEUE: taskQueue }),
    );
    expect(run1.code, run1.stderr).toBe(0);
    expect(run1.stderr).toMatch(/thoughtline: started evaluation eval-loop-[0-9a-f]{8} on task queue "eval-cli-/);
    expect(run1.stderr).toMatch(/thoughtline: \d\/2 done, 0 running, 0 skipped, \d passed; \$0\.00\d0, [\d,]+ tokens/);
    expect(run1.stdout).toMatch(/Termination accuracy\s+>= 95%\s+50\.0% \[\d+\.\d–\d+\.\d\] NOT MET/);
    expect(run1.stdout).toContain(`Report: ${path.join(first, 'report.md')}`);
    const result = EvaluationResult.parse(JSON.parse(fs.readFileSync(path.join(first, 'result.json'), 'utf8')));
    expect(result.results.map((r) => [r.caseId, r.passed])).toEqual([
      ['weather', true],
      ['broken-tool', false],
    ]);
    expect(fs.readFileSync(path.join(first, 'report.html'), 'utf8')).toContain('thoughtline chain stub/broken-tool/');

    // A baseline where every case passed: the broken case is a stable flip, exit 1, and --json prints the verdict.
    const baseline = path.join(dir, 'baseline.json');
    fs.writeFileSync(
      baseline,
      JSON.stringify({ ...result, results: result.results.map((r) => ({ ...r, passed: true, scores: [] })) }),
    );
    const run2 = await runCli(
      ['eval', dataset, '--no-worker', '--out', path.join(dir, 'second'), '--baseline', baseline, '--json'],
      cliEnv({ THOUGHTLINE_TASK_QUEUE: taskQueue }),
    );
    expect(run2.code, run2.stderr).toBe(1);
    const printed = JSON.parse(run2.stdout) as {
      gate: { passed: boolean; regressions: Array<{ why: string }> };
      summary: { variants: unknown[] };
    };
    expect(printed.gate.passed).toBe(false);
    expect(printed.gate.regressions.map((r) => r.why)).toEqual([
      'claude-sonnet-4-6: case broken-tool passed its one run in the baseline and fails its one run now: termination_accuracy: ended max_iterations; expected success',
    ]);
    expect(printed.summary.variants).toHaveLength(1);
    expect(run2.stderr).toContain('Regression gate against');
  }, 120_000);

  it('Ctrl-C stops following and says how to resume and cancel; --resume follows it to its reports', async () => {
    const longer = path.join(dir, 'long.jsonl');
    fs.writeFileSync(longer, Array.from({ length: 8 }, (_, i) => `{"id":"case-${i}","task":"Task ${i}"}`).join('\n'));
    const envVars = cliEnv({ THOUGHTLINE_TASK_QUEUE: taskQueue });
    const cli = spawnCli(['eval', longer, '--no-worker', '--out', path.join(dir, 'long')], envVars);
    await cli.waitFor(/\d\/8 done/);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(130);
    const id = /started evaluation (eval-long-[0-9a-f]{8})/.exec(cli.output())![1]!;
    expect(cli.output()).toContain(
      `Stopped following ${id}. The evaluation keeps its state in Temporal and goes on on the workers of task queue "${taskQueue}".`,
    );
    expect(cli.output()).toContain(`thoughtline eval "${longer}" --resume ${id} --out "${path.join(dir, 'long')}"`);
    expect(cli.output()).toContain(`thoughtline cancel ${id} --hard`);
    expect(fs.existsSync(path.join(dir, 'long'))).toBe(false);

    const resumed = await runCli(
      ['eval', longer, '--resume', id, '--no-worker', '--out', path.join(dir, 'long')],
      envVars,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`following evaluation ${id}`);
    const result = EvaluationResult.parse(JSON.parse(fs.readFileSync(path.join(dir, 'long', 'result.json'), 'utf8')));
    expect(result.results).toHaveLength(8);
  }, 120_000);
});
