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
  busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  await new Promise((resolve) => busy.once('spawn', resolve));
});
afterAll(() => {
  busy.kill('SIGKILL');
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('processSampler', () => {
  it('gives CPU only over a span of at least its minimum, measured from the last figure', async () => {
    const sampler = processSampler(() => ({ spinner: { pid: busy.pid! } }), { minCpuSpanMs: 400 });
    const first = sampler.sample();
    expect(first.spinner!.rssMb).toBeGreaterThan(0);
    expect(first.spinner).not.toHaveProperty('cpuPct');
    await sleep(100);
    // Too short a span: memory read, no CPU figure.
    const early = sampler.sample();
    expect(early.spinner!.rssMb).toBeGreaterThan(0);
    expect(early.spinner).not.toHaveProperty('cpuPct');
    await sleep(400);
    // From the first reading, not the early one: a spinning process near a whole core.
    const spanned = sampler.sample();
    expect(spanned.spinner!.cpuPct).toBeGreaterThan(50);
    expect(spanned.spinner!.cpuPct).toBeLessThan(130);
    expect(sampler.sample().spinner).not.toHaveProperty('cpuPct');
  });
});
