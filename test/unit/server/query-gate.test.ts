import { describe, expect, it, vi } from 'vitest';
import type { AgentClient } from '../../../src/client/agent-client';
import { createMemoryBus } from '../../../src/events/memory-bus';
import { QueryGate } from '../../../src/server/events/query-gate';
import { RunStream } from '../../../src/server/events/run-stream';

/** A read that resolves (or fails) when the test says, counting how many such reads are under way. */
function reads() {
  let inFlight = 0;
  let most = 0;
  const order: string[] = [];
  const open = new Map<string, { resolve(v: string): void; reject(e: Error): void }>();
  const read = (name: string) => () =>
    new Promise<string>((resolve, reject) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      order.push(name);
      const done = () => (inFlight -= 1);
      open.set(name, {
        resolve: (v) => (done(), resolve(v)),
        reject: (e) => (done(), reject(e)),
      });
    });
  return { read, open, order, most: () => most };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('QueryGate', () => {
  it('never has two reads under way, and starts them in the order asked', async () => {
    const gate = new QueryGate();
    const r = reads();
    const results = ['a', 'b', 'c'].map((name) => gate.run(r.read(name)));
    await tick();
    expect(r.order).toEqual(['a']);
    expect(gate.pending).toBe(3);
    r.open.get('a')!.resolve('A');
    await tick();
    expect(r.order).toEqual(['a', 'b']);
    r.open.get('b')!.resolve('B');
    await tick();
    r.open.get('c')!.resolve('C');
    await expect(Promise.all(results)).resolves.toEqual(['A', 'B', 'C']);
    expect(r.most()).toBe(1);
    expect(gate.pending).toBe(0);
  });

  it('lets the next read go when one fails or throws, and gives each caller its own outcome', async () => {
    const gate = new QueryGate();
    const r = reads();
    const failed = gate.run(r.read('a'));
    const thrown = gate.run(() => {
      throw new Error('not even started');
    });
    const next = gate.run(r.read('b'));
    await tick();
    r.open.get('a')!.reject(new Error('RESOURCE_EXHAUSTED'));
    await expect(failed).rejects.toThrow('RESOURCE_EXHAUSTED');
    await expect(thrown).rejects.toThrow('not even started');
    await tick();
    r.open.get('b')!.resolve('B');
    await expect(next).resolves.toBe('B');
    expect(r.most()).toBe(1);
  });
});

describe("RunStream's Temporal queries", () => {
  it("sends one query at a time however many views' watchers catch up at once, and a read still waiting serves later asks of it", async () => {
    let inFlight = 0;
    let most = 0;
    const calls: string[] = [];
    const slowRead = (what: string) => async () => {
      calls.push(what);
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight -= 1;
      return { chainId: 'wf', status: 'thinking', steps: [], pendingApprovals: [], subAgents: [] };
    };
    const agents = {
      getHandle: () => ({ describe: async () => ({ runId: 'r1', historyLength: 10, status: { name: 'RUNNING' } }) }),
      chain: vi.fn((_id: string, view: string) => slowRead(`chain:${view}`)()),
      status: vi.fn((_id: string, view: string) => slowRead(`status:${view}`)()),
      client: { connection: { withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn() } },
    } as unknown as AgentClient;
    const stream = new RunStream('wf', {
      agents,
      bus: createMemoryBus(),
      safetyPollMs: 3_600_000,
      readTimeoutMs: 5_000,
    });
    try {
      const now = stream.now;
      const asked = (['auditor', 'developer', 'end_user'] as const).flatMap((view) => [
        stream.chainInView(view, now),
        stream.statusInView(view, now),
        // A second watcher of the view joins while the first's reads wait at the gate: no new query.
        stream.chainInView(view, now),
      ]);
      await Promise.all(asked);
      expect(most).toBe(1);
      // The stream's own read of the facts (auditor) first, then each view's chain and status once.
      expect(calls).toEqual([
        'chain:auditor',
        'status:auditor',
        'chain:developer',
        'status:developer',
        'chain:end_user',
        'status:end_user',
      ]);
    } finally {
      await stream.close();
    }
  });
});
