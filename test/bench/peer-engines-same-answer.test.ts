import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
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
const run = promisify(execFile);
let infra: SideBySideInfra;
let workDir: string;

/** Thoughtline's engine runs compiled, as `npm run bench:peers` runs it. */
async function compileBench(): Promise<void> {
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  await run(process.execPath, [tsc, '-p', 'bench/tsconfig.json'], { cwd: root });
  await run(process.execPath, [path.join(root, 'scripts/vendor-sql-grammars.cjs'), '.thoughtline/bench-dist'], {
    cwd: root,
  });
}

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peer-engines-'));
  // Side by side: npm installing the peers (on a clean clone 27 s of both cores, idle), tsc and the
  // servers; only restate-server, one of the peers' packages, waits for the install.
  const installed = installPeers(peersDir, () => {}).then((error) => {
    if (error) throw new Error(`the peers' packages did not install: ${error}`);
  });
  const starting = startInfra(root, peersDir, workDir, () => {}, { postgres: true, restate: true }, installed);
  const [started, ...done] = await Promise.allSettled([starting, installed, compileBench()]);
  if (started.status === 'fulfilled') infra = started.value;
  for (const outcome of [...done, started]) if (outcome.status === 'rejected') throw outcome.reason;
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

describe("restate-server's start (bench/peers/engines/restate/start-server.mjs)", () => {
  it('starts a server that exits while starting three times in all, and the error quotes the last log', async () => {
    const script = path.join(peersDir, 'engines', 'restate', 'start-server.mjs');
    const { startRestateServer } = (await import(script)) as {
      startRestateServer(o: { workDir: string }): Promise<{ stop(): Promise<void> }>;
    };
    // A config file that does not exist: restate-server panics at once, before it binds a port.
    const saved = process.env['RESTATE_CONFIG'];
    process.env['RESTATE_CONFIG'] = path.join(workDir, 'no-such-config.toml');
    try {
      const started = startRestateServer({ workDir });
      await expect(started).rejects.toThrow(
        /exited during start-up \(3 attempts: [^)]*\); see .*server\.log; its end:/,
      );
      await expect(started).rejects.toThrow(/config-file path is valid/);
    } finally {
      if (saved === undefined) delete process.env['RESTATE_CONFIG'];
      else process.env['RESTATE_CONFIG'] = saved;
    }
  }, 60_000);
});
