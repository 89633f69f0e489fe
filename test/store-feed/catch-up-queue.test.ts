import { describe, expect, it } from 'vitest';
import { createCatchUpQueue } from '../../src/server/chain-store/catch-up-queue';
import { createRunLanes } from '../../src/server/chain-store/run-lanes';

describe('the catch-up queue', () => {
  it("catches up a run an event named while a sweep's runs hold every sweep slot", async () => {
    const started: string[] = [];
    const releases: (() => void)[] = [];
    const queue = createCatchUpQueue({
      lanes: createRunLanes(),
      concurrency: 2,
      catchUp: (runId) => {
        started.push(runId);
        // Sweep runs hang as a query with no worker would; the urgent one answers at once.
        return runId.startsWith('swept') ? new Promise<void>((resolve) => releases.push(resolve)) : Promise.resolve();
      },
    });
    for (let i = 0; i < 5; i++) queue.add(`swept-${i}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toEqual(['swept-0', 'swept-1']);
    expect(queue.add('ended-run', 'urgent')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toContain('ended-run');
    expect(queue.waits('swept-4')).toBe(true);
    // A swept run an event then names moves to the urgent pool, once.
    queue.add('swept-4', 'urgent');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started.filter((id) => id === 'swept-4')).toHaveLength(1);
    while (releases.length > 0 || queue.size() > 0) {
      releases.splice(0).forEach((release) => release());
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await queue.idle();
    expect(started.filter((id) => id.startsWith('swept')).sort()).toEqual([
      'swept-0',
      'swept-1',
      'swept-2',
      'swept-3',
      'swept-4',
    ]);
  });

  it('refuses more waiting runs than its limit, per pool', () => {
    const queue = createCatchUpQueue({ lanes: createRunLanes(), limit: 2, catchUp: () => new Promise(() => {}) });
    expect([queue.add('a'), queue.add('b'), queue.add('c')]).toEqual([true, true, false]);
    expect(queue.add('d', 'urgent')).toBe(true);
  });
});
