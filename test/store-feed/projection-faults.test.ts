import { afterEach, describe, expect, it } from 'vitest';
import { isRunGone } from '../../src/client/errors/run-gone';
import { createMemoryBus } from '../../src/events/memory-bus';
import { createChainStoreProjection } from '../../src/server/chain-store/chain-store-projection';
import { checkChainStore } from '../../src/server/chain-store/check-chain-store';
import { markGoneRuns } from '../../src/server/chain-store/mark-gone-runs';
import { useTestEnv } from '../helpers/temporal-env';
import { createFeedWorker, eventually, lookupModel } from './feed-harness';
import { storeKinds, type StoreKind } from './store-kinds';

const env = useTestEnv();
const kinds = storeKinds();
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

describe.each(kinds.filter(([, , can]) => can.stoppable))(
  'the chain store projection on %s, its database down',
  (_kind, openStore: StoreKind) => {
    it('lets a run finish while the database is down, then catches it up to equal Temporal', async () => {
      const { store, stop, start } = await openStore();
      open.push(store);
      const bus = createMemoryBus();
      const feed = await createFeedWorker(env, lookupModel(6, 150), bus);
      const projection = createChainStoreProjection({
        store,
        agents: feed.agents,
        bus,
        sweepEveryMs: 500,
        pingEveryMs: 200,
        log: () => {},
      });
      open.push(projection);
      await projection.start();
      const { workflowId, success, sawDown } = await feed.worker.runUntil(async () => {
        const handle = await feed.start('store-feed: database down');
        expect(await eventually(async () => ((await store.run(handle.workflowId))?.lastStep ?? 0) >= 2)).toBe(true);
        await stop!();
        const sawDown = await eventually(async () => projection.stats().databaseDown, 5_000);
        await new Promise((resolve) => setTimeout(resolve, 600));
        await start!();
        const result = await handle.result();
        expect(
          await eventually(async () => (await store.run(handle.workflowId).catch(() => undefined))?.complete === true),
        ).toBe(true);
        return { workflowId: handle.workflowId, success: result.success, sawDown };
      });
      expect(success).toBe(true);
      expect(sawDown).toBe(true);
      expect(projection.stats().databaseDown).toBe(false);
      expect((await checkChainStore(store, feed.agents, [workflowId])).differences).toEqual([]);
    });
  },
);

describe("the chain store past Temporal's retention", () => {
  it('keeps a run Temporal deleted, marked temporalGone, with its steps, on every store', async () => {
    const stores = await Promise.all(kinds.map(async ([, openStore]) => (await openStore()).store));
    open.push(...stores);
    const bus = createMemoryBus();
    const feed = await createFeedWorker(env, lookupModel(2, 0), bus);
    for (const store of stores) {
      const projection = createChainStoreProjection({ store, agents: feed.agents, bus, log: () => {} });
      open.push(projection);
      await projection.start();
    }
    const workflowId = await feed.worker.runUntil(async () => {
      const handle = await feed.start('store-feed: deleted from Temporal');
      await handle.result();
      return handle.workflowId;
    });
    for (const store of stores)
      expect(await eventually(async () => (await store.run(workflowId))?.complete === true)).toBe(true);
    const steps = (await stores[0]!.run(workflowId))!.stepCount;
    expect(steps).toBeGreaterThanOrEqual(5);
    // The dev server keeps closed runs a day at least: deleting the run stands in for its retention.
    await env.client.workflowService.deleteWorkflowExecution({
      namespace: feed.namespace,
      workflowExecution: { workflowId },
    });
    const gone = () =>
      feed.agents
        .getHandle(workflowId)
        .describe()
        .then(
          () => false,
          (err: unknown) => {
            if (!isRunGone(err)) throw err;
            return true;
          },
        );
    // The server deletes a history in the background, within some seconds.
    expect(await eventually(gone, 40_000)).toBe(true);
    const later = new Date(Date.now() + 1_000).toISOString();
    for (const store of stores) {
      expect(await markGoneRuns(store, feed.agents, later)).toBe(1);
      const stored = await store.run(workflowId);
      expect(stored?.temporalGone).toBe(true);
      expect(stored?.stepCount).toBe(steps);
      expect((await store.steps(workflowId, { afterStep: 0, limit: 100 })).length).toBe(steps);
      expect((await checkChainStore(store, feed.agents, [workflowId])).differences).toEqual([]);
      // Marked once: a second pass finds nothing new.
      expect(await markGoneRuns(store, feed.agents, later)).toBe(0);
    }
  }, 60_000);
});
