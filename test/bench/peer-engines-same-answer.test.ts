import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callEngine } from '../../bench/side-by-side/engine-process';
import { engineSpec } from '../../bench/side-by-side/engine-specs';
import { startInfra, type SideBySideInfra } from '../../bench/side-by-side/infra/start-infra';
import { ENGINE_NAMES } from '../../bench/side-by-side/side-by-side-config';
import { readMarks, stepsOf } from '../../bench/side-by-side/step-marks';
import { installPeers } from '../../bench/lib/run-peers';

/**
 * Issue 66: every engine of `npm run bench:peers` really does the same work. Each runs the shared
 * loop (3 iterations) on its real servers (Temporal's dev server, PostgreSQL, restate-server) and
 * must give the same answer, with every model and tool step run exactly once in order.
 */
const root = path.resolve(__dirname, '../..');
const peersDir = path.join(root, 'bench', 'peers');
const ITERATIONS = 3;
let infra: SideBySideInfra;
let workDir: string;

beforeAll(async () => {
  const installError = await installPeers(peersDir, () => {});
  if (installError) throw new Error(`the peers' packages did not install: ${installError}`);
  // Thoughtline's engine runs compiled, as `npm run bench:peers` runs it.
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'bench/tsconfig.json'],
    {
      cwd: root,
      stdio: 'pipe',
    },
  );
  execFileSync(process.execPath, [path.join(root, 'scripts/vendor-sql-grammars.cjs'), '.thoughtline/bench-dist'], {
    cwd: root,
    stdio: 'pipe',
  });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peer-engines-'));
  infra = await startInfra(root, peersDir, workDir, () => {}, { postgres: true, restate: true });
  expect(infra.errors).toEqual([]);
}, 900_000);

afterAll(async () => {
  await infra?.stop();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

describe('every engine of bench:peers completes the same task with the same answer', () => {
  it.each([...ENGINE_NAMES])(
    '%s',
    async (name) => {
      const engine = engineSpec(name, root, peersDir, infra);
      const marksDir = fs.mkdtempSync(path.join(workDir, `marks-${name}-`));
      const { reply } = await callEngine<{ runs: Array<{ id: string; answer: string }> }>(
        engine,
        {
          scenario: 'loop',
          runs: 1,
          iterations: ITERATIONS,
          warmupIterations: 1,
          modelDelayMs: 0,
          observationBytes: 100,
          marksDir,
          infra: infra.request(workDir),
        },
        { workDir, timeoutMs: 240_000, log: () => {} },
      );
      const run = reply.runs[0]!;
      expect(run.answer).toBe(`Called lookup ${ITERATIONS} times.`);
      const steps = stepsOf(readMarks(marksDir, run.id), ITERATIONS);
      if ('problem' in steps) throw new Error(steps.problem);
      expect(steps.steps.map((s) => `${s.kind}${s.index}:${s.starts}/${s.ends}`)).toEqual([
        'model0:1/1',
        'tool1:1/1',
        'model1:1/1',
        'tool2:1/1',
        'model2:1/1',
        'tool3:1/1',
        'model3:1/1',
      ]);
      // In order: each step starts after the one before it ended.
      for (let i = 1; i < steps.steps.length; i++)
        expect(steps.steps[i]!.start).toBeGreaterThanOrEqual(steps.steps[i - 1]!.end);
    },
    300_000,
  );
});
