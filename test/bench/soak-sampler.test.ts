import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processSampler } from '../../bench/soak/soak-sampler';

/**
 * The soak's per-process CPU (bench/soak/soak-sampler.ts) on a real process spinning one core:
 * a reading over a span shorter than its minimum (the soak's last one, taken just after a
 * minute's) gives no CPU figure, where it once read one 10 ms tick over 25 ms as 40% of a core,
 * and the next reading spans the whole time since the last figure.
 */
let busy: ChildProcess;
beforeAll(async () => {
  // Read once it runs: right after the spawn it may not have become node yet (an RSS of 0 MB once).
  busy = spawn(process.execPath, ['-e', "process.stdout.write('spinning\\n'); for (;;) {}"], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise((resolve) => busy.stdout!.once('data', resolve));
});
afterAll(() => {
  busy.kill('SIGKILL');
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('processSampler', () => {
  it('gives CPU only over a span of at least its minimum, measured from the last figure', async () => {
    const sampler = processSampler(() => ({ spinner: { pid: busy.pid! } }), { minCpuSpanMs: 1_000 });
    const first = sampler.sample();
    expect(first.spinner!.rssMb).toBeGreaterThan(0);
    expect(first.spinner).not.toHaveProperty('cpuPct');
    await sleep(100);
    // Too short a span: memory read, no CPU figure.
    const early = sampler.sample();
    expect(early.spinner!.rssMb).toBeGreaterThan(0);
    expect(early.spinner).not.toHaveProperty('cpuPct');
    await sleep(950);
    // 1,050 ms from the first reading, 950 from the early one: a figure only if the first is its start.
    const spanned = sampler.sample();
    // A spinning process: a real share of a core, loaded as the machine may be, and at most one core.
    expect(spanned.spinner!.cpuPct).toBeGreaterThan(5);
    expect(spanned.spinner!.cpuPct).toBeLessThanOrEqual(105);
    expect(sampler.sample().spinner).not.toHaveProperty('cpuPct');
  });
});
