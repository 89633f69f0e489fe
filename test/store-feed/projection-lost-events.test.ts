import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/events/memory-bus';
import {
  createChainStoreProjection,
  type ChainStoreProjection,
} from '../../src/server/chain-store/chain-store-projection';
import { checkChainStore } from '../../src/server/chain-store/check-chain-store';
import type { ChainStore } from '../../src/store/chain-store';
import { useTestEnv } from '../helpers/temporal-env';
import { createFeedWorker, eventually, lossyPublisher, lookupModel } from './feed-harness';
import { storeKinds } from './store-kinds';

const env = useTestEnv();
const kinds = storeKinds();
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

/** A projection that sweeps every half second (the minute's sweep, quickened for the test). */
async function startProjection(
  store: ChainStore,
  agents: Parameters<typeof createChainStoreProjection>[0]['agents'],
  bus: ReturnType<typeof createMemoryBus>,
): Promise<ChainStoreProjection> {
  const projection = createChainStoreProjection({ store, agents, bus, sweepEveryMs: 500, log: () => {} });
  open.push(projection);
  await projection.start();
  return projection;
}

describe.each(kinds)('the chain store projection on %s', (_kind, openStore) => {
  it("writes a run whose events all arrive from its events alone: equal to Temporal's chain, no Temporal action", async () => {
    const { store } = await openStore();
    open.push(store);
    const bus = createMemoryBus();
    const feed = await createFeedWorker(env, lookupModel(3, 0), bus);
    const projection = await startProjection(store, feed.agents, bus);
    const workflowId = await feed.worker.runUntil(async () => {
      const handle = await feed.start('store-feed: all events arrive');
      await handle.result();
      return handle.workflowId;
    });
    expect(await eventually(async () => (await store.run(workflowId))?.complete === true)).toBe(true);
    const check = await checkChainStore(store, feed.agents, [workflowId]);
    expect(check.differences).toEqual([]);
    const stored = await store.run(workflowId);
    expect(stored?.stepCount).toBeGreaterThanOrEqual(7);
    expect(stored?.state).toBe('completed');
    // The projection lists every run of the namespace; other files' runs may cost it queries, this one none.
    expect(projection.queriesOf(workflowId)).toBe(0);
  });

  it("stays equal to Temporal's chain when every third step event and the end event are lost and the projection restarts mid-run", async () => {
    const { store } = await openStore();
    open.push(store);
    const bus = createMemoryBus();
    let endDropped = false;
    const lossy = lossyPublisher(
      bus,
      (event, stepIndex) =>
        (event.type === 'step' && stepIndex % 3 === 0) || (event.type === 'end' && !endDropped && (endDropped = true)),
    );
    const feed = await createFeedWorker(env, lookupModel(6, 150), lossy);
    const first = await startProjection(store, feed.agents, bus);
    const { workflowId, queries } = await feed.worker.runUntil(async () => {
      const handle = await feed.start('store-feed: lossy');
      // Mid-run: the projection stops (events meanwhile are lost to it) and a new one starts.
      expect(await eventually(async () => ((await store.run(handle.workflowId))?.lastStep ?? 0) >= 2)).toBe(true);
      await first.close();
      await new Promise((resolve) => setTimeout(resolve, 400));
      const second = await startProjection(store, feed.agents, bus);
      await handle.result();
      expect(await eventually(async () => (await store.run(handle.workflowId))?.complete === true)).toBe(true);
      await second.idle();
      return {
        workflowId: handle.workflowId,
        queries: first.queriesOf(handle.workflowId) + second.queriesOf(handle.workflowId),
      };
    });
    expect(lossy.dropped.some((e) => e.type === 'end')).toBe(true);
    expect(lossy.dropped.filter((e) => e.type === 'step').length).toBeGreaterThanOrEqual(2);
    const check = await checkChainStore(store, feed.agents, [workflowId]);
    expect(check.differences).toEqual([]);
    expect((await store.run(workflowId))?.behindSince).toBeUndefined();
    // Gaps and the restart are caught up by the chain query; bounded by the gaps, not the steps.
    expect(queries).toBeGreaterThan(0);
    expect(queries).toBeLessThanOrEqual(lossy.dropped.length + 1);
  });

  it('stays exact with two projections writing the same store at once', async () => {
    const { store } = await openStore();
    open.push(store);
    const bus = createMemoryBus();
    const lossy = lossyPublisher(bus, (event, stepIndex) => event.type === 'step' && stepIndex % 4 === 0);
    const feed = await createFeedWorker(env, lookupModel(5, 50), lossy);
    const projections = [
      await startProjection(store, feed.agents, bus),
      await startProjection(store, feed.agents, bus),
    ];
    const workflowIds = await feed.worker.runUntil(async () => {
      const handles = await Promise.all([feed.start('store-feed: twice a'), feed.start('store-feed: twice b')]);
      await Promise.all(handles.map((h) => h.result()));
      for (const h of handles)
        expect(await eventually(async () => (await store.run(h.workflowId))?.complete === true)).toBe(true);
      await Promise.all(projections.map((p) => p.idle()));
      return handles.map((h) => h.workflowId);
    });
    const check = await checkChainStore(store, feed.agents, workflowIds);
    expect(check.runs).toBe(2);
    expect(check.differences).toEqual([]);
    for (const id of workflowIds) {
      const stored = await store.run(id);
      expect(stored?.stepCount).toBe(stored?.lastStep);
    }
  });
});
