import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';
import { bySize, chaosSettings } from './chaos-settings';
import { planRun } from './lib/chaos-plan';
import { writeChaosToolsModule } from './lib/chaos-tools-module';
import { runKillWave } from './lib/kill-wave';
import { runReferences } from './lib/reference-runs';
import { runProblems } from './lib/run-problems';
import { waveReport } from './lib/wave-report';

// CHAOS_RUNS overrides the count, e.g. for a quick look at the full-size settings.
const { seed } = chaosSettings();
const RUNS = Number(process.env['CHAOS_RUNS'] ?? bySize(6, 50));
// Runs share a worker, so every kill interrupts the whole wave: waves keep that bounded.
const WAVE = bySize(6, 10);
const WAVE_DEADLINE_MS = 240_000;

const env = useTestEnv();
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(PROJECT_ROOT, '.thoughtline/tmp/chaos-kills-'));
});
afterAll(async () => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('chaos: worker kills', () => {
  it(
    `${RUNS} seeded runs, each SIGKILLing its worker at a random point, all complete as if undisturbed`,
    async () => {
      console.log(
        `[chaos worker-kills] seed ${seed} (reproduce: CHAOS_SEED=${seed}), ${RUNS} runs in waves of ${WAVE}`,
      );
      const toolsFile = writeChaosToolsModule(dir);
      const plans = Array.from({ length: RUNS }, (_, i) => planRun(seed, i));
      // The undisturbed references run alongside the first wave, which mostly waits on timeouts.
      const referencing = runReferences(env, plans, toolsFile);
      referencing.catch(() => {});

      const problems: string[] = [];
      for (let start = 0; start < plans.length; start += WAVE) {
        const wave = await runKillWave(env.client, plans.slice(start, start + WAVE), toolsFile, WAVE_DEADLINE_MS);
        const references = await referencing;
        problems.push(...wave.problems);
        for (const run of wave.runs) {
          problems.push(...runProblems(run, references.get(run.plan.label)!, wave));
          if (!wave.fired.has(run.plan.label)) problems.push(`${run.plan.label}: its kill point never fired`);
        }
        console.log(`[chaos worker-kills] wave ${start / WAVE + 1}: ${waveReport(wave)}`);
      }
      expect(problems).toEqual([]);
    },
    bySize(240_000, 1_500_000),
  );
});
