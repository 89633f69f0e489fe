import { describe, expect, it } from 'vitest';
import { cpuByProgram, readProcessCpu, type ProcessCpu } from '../../bench/lib/cpu-by-program';

describe('cpuByProgram', () => {
  it('sums what each program spent between two readings, new processes whole, largest first', () => {
    const before: ProcessCpu = new Map([
      [10, { program: 'postgres', cpuMs: 100 }],
      [11, { program: 'temporal-server', cpuMs: 1_000 }],
      [12, { program: 'node', cpuMs: 50 }],
    ]);
    const after: ProcessCpu = new Map([
      [10, { program: 'postgres', cpuMs: 400 }],
      [11, { program: 'temporal-server', cpuMs: 1_900 }],
      [13, { program: 'postgres', cpuMs: 250 }],
      // A pid reused by another program counts whole.
      [12, { program: 'sh', cpuMs: 20 }],
    ]);
    expect(cpuByProgram(before, after)).toEqual([
      { program: 'temporal-server', cpuMs: 900 },
      { program: 'postgres', cpuMs: 550 },
      { program: 'sh', cpuMs: 20 },
    ]);
  });

  it('reads this process from /proc under its own name, with the CPU it has used', () => {
    const mine = readProcessCpu().get(process.pid);
    expect(mine?.program).toMatch(/node|vitest/);
    expect(mine!.cpuMs).toBeGreaterThan(0);
  });
});
