import { afterEach, describe, expect, it } from 'vitest';
import type { ReasoningStep } from '../../src/domain/chain/chain';
import { chainPage } from '../../src/domain/chain/chain-page';
import { IncrementalChainView, viewChain } from '../../src/domain/chain/chain-view';
import type { ViewerRole } from '../../src/domain/identity/people';
import {
  RUN_SORT_KEYS,
  RunList,
  type RunListInput,
  RunSearch,
  type RunSearchInput,
  StoredRun,
} from '../../src/domain/store';
import type { ChainStore, StoreScope } from '../../src/store/chain-store';
import { MAX_SEARCH_TEXT_BYTES, MAX_STORED_STEP_BYTES } from '../../src/store/queries/step-row';
import { StepTooLargeError, UnknownStoredRunError } from '../../src/store/store-errors';
import { CARD, runUpdateOf, sampleChain, testStep } from './store-test-chains';

/** Opens stores on one fresh, migrated database: `open()` twice gives two connections to it. */
export interface StoreUnderTest {
  open(): Promise<ChainStore>;
}

const ROLES: readonly ViewerRole[] = ['end_user', 'developer', 'auditor'];
const full = { level: 'full' } as const;
const search = (input: RunSearchInput = {}) => RunSearch.parse(input);
const scope = (tenant: string | null, role: ViewerRole = 'auditor'): StoreScope => ({ tenant, role });

/**
 * What every ChainStore must do, run against each database: `fresh()` gives a new empty database
 * per test. The database-down behaviour is each database's own test.
 */
export function chainStoreContract(name: string, fresh: () => Promise<StoreUnderTest>): void {
  describe(`ChainStore contract: ${name}`, () => {
    const opened: ChainStore[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });
    const storeOf = async (database?: StoreUnderTest) => {
      const store = await (database ?? (await fresh())).open();
      opened.push(store);
      return store;
    };
    const putChain = async (store: ChainStore, chain = sampleChain('run-1'), extra = {}) => {
      await store.putRun(runUpdateOf(chain, extra));
      await store.putSteps(chain.chainId, chain.steps);
      return chain;
    };

    it('stores a run and derives every aggregate from its steps', async () => {
      const store = await storeOf();
      await putChain(store);
      const run = await store.run('run-1');
      expect(run).toMatchObject({
        runId: 'run-1',
        agentName: 'helper',
        callerId: 'u-1',
        rootRunId: 'run-1',
        state: 'completed',
        chainStatus: 'completed',
        startedAt: '2026-01-01T00:00:00.000Z',
        stepCount: 9,
        lastStep: 9,
        hiddenSteps: 1,
        costUsd: 0.75,
        inputTokens: 105,
        outputTokens: 27,
        tools: ['charge', 'claude-x', 'lookup', 'vault'],
        complete: false,
        temporalGone: false,
      });
      expect(run?.behindSince).toBeUndefined();
      expect(run && 'tenant' in run).toBe(false);
      expect(StoredRun.parse(run)).toEqual(run);
      expect(await store.run('nope')).toBeUndefined();
    });

    it('says when it last wrote: nothing for an empty store, then its latest write', async () => {
      const store = await storeOf();
      expect(await store.lastWrite()).toBeUndefined();
      const before = new Date().toISOString();
      await putChain(store);
      const last = await store.lastWrite();
      expect(last).toBeDefined();
      expect(Date.parse(last!)).toBeGreaterThanOrEqual(Date.parse(before));
      expect(last).toBe((await store.run('run-1'))?.storedAt);
    });

    it('is idempotent: the same steps twice, or in reverse one at a time, leave the same rows', async () => {
      const database = await fresh();
      const store = await storeOf(database);
      const chain = await putChain(store);
      await putChain(store, chain);
      const reversed = sampleChain('run-2');
      await store.putRun(runUpdateOf(reversed));
      for (const step of [...reversed.steps].reverse()) await store.putSteps('run-2', [step]);
      await store.putSteps('run-2', reversed.steps.slice(2, 5));
      const [one, two] = [await store.head('run-1'), await store.head('run-2')];
      const aggregates = (r: typeof one) => {
        const { runId: _id, rootRunId: _root, storedAt: _at, ...rest } = r!.run;
        return rest;
      };
      expect(aggregates(two)).toEqual(aggregates(one));
      expect(two?.facts).toEqual(one?.facts);
      expect(await store.steps('run-2', { afterStep: 0, limit: 100 })).toEqual(chain.steps);
      expect(await store.steps('run-1', { afterStep: 0, limit: 100 })).toEqual(chain.steps);
      // A result stored before its call still names the call's tool.
      expect(
        (await store.steps('run-2', { afterStep: 0, limit: 100, filter: { tool: 'charge' } })).map((s) => s.stepNumber),
      ).toEqual([7, 8]);
    });

    it('two connections writing one run at once leave it exact', async () => {
      const database = await fresh();
      const [a, b] = [await storeOf(database), await storeOf(database)];
      const chain = sampleChain('run-1');
      await Promise.all([a.putRun(runUpdateOf(chain)), b.putRun(runUpdateOf(chain))]);
      const odd = chain.steps.filter((s) => s.stepNumber % 2 === 1);
      const even = chain.steps.filter((s) => s.stepNumber % 2 === 0);
      await Promise.all([
        ...chain.steps.map((s) => a.putSteps('run-1', [s])),
        b.putSteps('run-1', even),
        b.putSteps('run-1', odd),
        a.putSteps('run-1', chain.steps),
      ]);
      const run = await b.run('run-1');
      expect(run).toMatchObject({
        stepCount: 9,
        lastStep: 9,
        hiddenSteps: 1,
        costUsd: 0.75,
        inputTokens: 105,
        outputTokens: 27,
      });
      expect(await a.steps('run-1', { afterStep: 0, limit: 100 })).toEqual(chain.steps);
    });

    it('refuses steps of a run it has not been given', async () => {
      const store = await storeOf();
      await expect(store.putSteps('ghost', [testStep(1, full, { type: 'thinking', thought: 'x' })])).rejects.toThrow(
        UnknownStoredRunError,
      );
    });

    it('reads a page after a step, oldest first, at most the limit', async () => {
      const store = await storeOf();
      await putChain(store);
      const numbers = async (afterStep: number, limit: number) =>
        (await store.steps('run-1', { afterStep, limit })).map((s) => s.stepNumber);
      expect(await numbers(0, 3)).toEqual([1, 2, 3]);
      expect(await numbers(3, 3)).toEqual([4, 5, 6]);
      expect(await numbers(8, 3)).toEqual([9]);
      expect(await numbers(9, 3)).toEqual([]);
      expect(await store.steps('other', { afterStep: 0, limit: 3 })).toEqual([]);
    });

    it('filters a page by type, tool, time and text', async () => {
      const store = await storeOf();
      await putChain(store);
      const numbers = async (filter: object, afterStep = 0) =>
        (await store.steps('run-1', { afterStep, limit: 100, filter })).map((s) => s.stepNumber);
      expect(await numbers({ types: ['tool_result'] })).toEqual([4, 6, 8]);
      expect(await numbers({ types: ['thinking', 'synthesis'] })).toEqual([1, 9]);
      expect(await numbers({ tool: 'lookup' })).toEqual([5, 6]);
      expect(await numbers({ tool: 'claude-x' })).toEqual([3, 4]);
      expect(await numbers({ tool: 'claude' })).toEqual([]);
      expect(await numbers({ from: '2026-01-01T00:00:03.000Z', to: '2026-01-01T00:00:05Z' })).toEqual([3, 4, 5]);
      expect(await numbers({ from: '2026-01-01T01:00:03+01:00' })).toEqual([3, 4, 5, 6, 7, 8, 9]);
      expect(await numbers({ text: 'no such thing' })).toEqual([6]);
      expect(await numbers({ text: CARD })).toEqual([1, 7]);
      // LIKE's wildcards are plain characters here.
      expect(await numbers({ text: '100%_' })).toEqual([4]);
      expect(await numbers({ text: '%' })).toEqual([4]);
      expect(await numbers({ text: 'o_' })).toEqual([]);
      expect(await numbers({ types: ['tool_call'], tool: 'charge', text: 'amount' })).toEqual([7]);
      expect(await numbers({ types: ['tool_call'] }, 5)).toEqual([7]);
    });

    it('gives every role the page its view of the whole chain shows', async () => {
      const store = await storeOf();
      const chain = sampleChain('run-1');
      await store.putRun(runUpdateOf(chain));
      // Out of order and in pieces, as events and catch-up may write them.
      await store.putSteps('run-1', chain.steps.slice(6));
      await store.putSteps('run-1', chain.steps.slice(0, 3));
      await store.putSteps('run-1', chain.steps.slice(3, 6));
      const stored = (await store.head('run-1'))!;
      expect(JSON.stringify(stored.facts)).toContain(CARD);
      for (const role of ROLES) {
        const whole = viewChain(chain, role);
        for (let after = 0; after <= chain.steps.length; after++)
          for (const limit of [1, 4, 9]) {
            const raw = await store.steps('run-1', { afterStep: after, limit });
            const expected = chainPage(whole, { afterStep: after, limit });
            const got = IncrementalChainView.fromFacts(stored.facts).page(
              stored.head,
              raw,
              role,
              stored.run.hiddenSteps,
            );
            expect(got.steps).toEqual(expected.steps.filter((s) => raw.some((r) => r.stepNumber === s.stepNumber)));
            const { steps: _a, ...gotHead } = got;
            const { steps: _b, ...expectedHead } = expected;
            expect(gotHead).toEqual(expectedHead);
          }
        if (role !== 'auditor') {
          const page = IncrementalChainView.fromFacts(stored.facts).page(stored.head, chain.steps, role, 1);
          expect(JSON.stringify(page)).not.toContain(CARD);
        }
      }
    });

    it("never finds another tenant's run, whatever the search", async () => {
      const store = await storeOf();
      await putChain(store, sampleChain('a-1', { tenant: 'A' }));
      await putChain(store, sampleChain('b-1', { tenant: 'B' }));
      await putChain(store, sampleChain('none-1'));
      const searches: RunSearchInput[] = [
        {},
        { tenant: 'A' },
        { tenant: 'A', text: 'charge' },
        { tool: 'charge' },
        { text: CARD },
        { agent: 'helper', caller: 'u-1', state: 'completed', includeSubAgents: true },
        { minCostUsd: 0, maxCostUsd: 100, startedAfter: '2000-01-01T00:00:00Z', limit: 100 },
      ];
      const ids = async (input: RunSearchInput, tenant: string | null, role: ViewerRole = 'auditor') =>
        (await store.searchRuns(search(input), scope(tenant, role))).runs.map((r) => r.run.runId);
      for (const input of searches)
        for (const role of ROLES) {
          expect(await ids(input, 'B', role)).not.toContain('a-1');
          expect(await ids(input, null, role)).not.toContain('a-1');
          expect(await ids(input, 'A', role)).not.toContain('b-1');
          expect(await ids(input, 'A', role)).not.toContain('none-1');
        }
      expect(await ids({}, 'A')).toEqual(['a-1']);
      expect(await ids({ tenant: 'A' }, 'A')).toEqual(['a-1']);
      expect(await ids({ tenant: 'A' }, 'B')).toEqual([]);
      expect(await ids({ tenant: 'A' }, null)).toEqual([]);
      expect(await ids({}, null)).toEqual(['none-1']);
      expect(await ids({ tenant: 'B' }, 'B')).toEqual(['b-1']);
      expect(
        (await store.usage(scope('B'), '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z')).map((r) => r.runs),
      ).toEqual([1]);
    });

    it("finds a hidden step's tool and text for the auditor only", async () => {
      const store = await storeOf();
      await putChain(store);
      const found = async (input: RunSearchInput, role: ViewerRole) =>
        (await store.searchRuns(search(input), scope(null, role))).runs;
      for (const role of ['developer', 'end_user'] as const) {
        expect(await found({ tool: 'vault' }, role)).toEqual([]);
        expect(await found({ text: 'zanzibar' }, role)).toEqual([]);
        expect((await found({ tool: 'lookup' }, role)).map((r) => r.run.runId)).toEqual(['run-1']);
      }
      expect((await found({ tool: 'vault' }, 'auditor')).map((r) => r.run.runId)).toEqual(['run-1']);
      const [hit] = await found({ text: 'ZANZIBAR' }, 'auditor');
      expect(hit?.matchedSteps).toEqual([2]);
      const [card] = await found({ text: CARD }, 'developer');
      expect(card?.matchedSteps).toEqual([1, 7]);
      expect((await found({ tool: 'charge' }, 'developer'))[0]?.matchedSteps).toEqual([]);
    });

    it('searches newest start first, a page at a time, with every run filter', async () => {
      const store = await storeOf();
      for (let i = 1; i <= 5; i++)
        await putChain(
          store,
          sampleChain(`r-${i}`, { startedAt: `2026-01-0${i}T10:00:00.000Z`, agentName: i % 2 ? 'odd' : 'even' }),
          {
            state: i === 5 ? 'running' : 'completed',
          },
        );
      // One run of the same start as r-3, and a sub-agent.
      await putChain(store, sampleChain('r-3b', { startedAt: '2026-01-03T10:00:00.000Z', agentName: 'odd' }));
      const child = sampleChain('child', { startedAt: '2026-01-06T00:00:00.000Z' });
      await putChain(store, child, { parentRunId: 'r-1', rootRunId: 'r-1' });
      const ids = async (input: RunSearchInput) =>
        (await store.searchRuns(search(input), scope(null))).runs.map((r) => r.run.runId);
      expect(await ids({})).toEqual(['r-5', 'r-4', 'r-3b', 'r-3', 'r-2', 'r-1']);
      expect(await ids({ includeSubAgents: true })).toEqual(['child', 'r-5', 'r-4', 'r-3b', 'r-3', 'r-2', 'r-1']);
      expect(await store.run('child')).toMatchObject({ parentRunId: 'r-1', rootRunId: 'r-1' });
      expect(await ids({ agent: 'even' })).toEqual(['r-4', 'r-2']);
      expect(await ids({ state: 'running' })).toEqual(['r-5']);
      expect(await ids({ caller: 'u-2' })).toEqual([]);
      expect(await ids({ minCostUsd: 0.75, maxCostUsd: 0.75 })).toEqual(['r-5', 'r-4', 'r-3b', 'r-3', 'r-2', 'r-1']);
      expect(await ids({ minCostUsd: 0.76 })).toEqual([]);
      expect(await ids({ maxCostUsd: 0.74 })).toEqual([]);
      expect(await ids({ startedAfter: '2026-01-03T10:00:00Z', startedBefore: '2026-01-05T00:00:00+00:00' })).toEqual([
        'r-4',
        'r-3b',
        'r-3',
      ]);
      const pages: string[][] = [];
      let cursor: string | undefined;
      do {
        const page = await store.searchRuns(search({ limit: 2, ...(cursor ? { cursor } : {}) }), scope(null));
        pages.push(page.runs.map((r) => r.run.runId));
        cursor = page.next;
      } while (cursor);
      expect(pages).toEqual([
        ['r-5', 'r-4'],
        ['r-3b', 'r-3'],
        ['r-2', 'r-1'],
      ]);
      await expect(store.searchRuns(search({ cursor: 'not-a-cursor' }), scope(null))).rejects.toThrow(/cursor/);
      // At most 100 a page, whatever the search says.
      expect((await store.searchRuns({ ...search(), limit: 1_000 }, scope(null))).runs).toHaveLength(6);
    });

    it('lists root runs sorted by any column, a run without the value last either way, a page at a time', async () => {
      const store = await storeOf();
      /** A run whose model reply (step 4) says the model, cost, tokens and iteration it is given. */
      const putListed = async (
        id: string,
        o: { day: number; tookMs?: number; iteration: number; model?: string; cost: number; output: number },
        extra = {},
      ) => {
        const startedAt = `2026-02-0${o.day}T10:00:00.000Z`;
        const chain = sampleChain(id, { startedAt });
        const steps = chain.steps.map((step) =>
          step.stepNumber === 4
            ? {
                ...step,
                iteration: o.iteration,
                costUsd: o.cost,
                usage: { inputTokens: 5, outputTokens: o.output, cacheReadTokens: 0, cacheWriteTokens: 0 },
                ...(o.model ? { model: o.model } : {}),
              }
            : { ...step, iteration: Math.min(1, o.iteration) },
        ) as ReasoningStep[];
        const ended =
          o.tookMs === undefined
            ? { state: 'running' as const }
            : { endedAt: new Date(Date.parse(startedAt) + o.tookMs).toISOString() };
        await store.putRun(runUpdateOf({ ...chain, steps }, { ...ended, ...extra }));
        // Written one at a time, last first: the latest reply's model and the highest iteration win.
        for (const step of [...steps].reverse()) await store.putSteps(id, [step]);
      };
      await putListed('a', { day: 1, tookMs: 5_000, iteration: 3, model: 'm-b', cost: 0.1, output: 50 });
      await putListed('b', { day: 2, tookMs: 60_000, iteration: 1, model: 'm-a', cost: 0.9, output: 10 });
      await putListed('c', { day: 3, iteration: 7, cost: 0.5, output: 30 });
      await putListed(
        'child',
        { day: 4, tookMs: 1, iteration: 9, model: 'm-a', cost: 5, output: 99 },
        {
          parentRunId: 'a',
          rootRunId: 'a',
        },
      );
      await putChain(store, sampleChain('elsewhere', { tenant: 'globex' }));
      expect(await store.run('a')).toMatchObject({ iterations: 3, model: 'm-b', durationMs: 5_000 });
      expect(await store.run('c')).toMatchObject({ iterations: 7 });
      expect((await store.run('c'))?.durationMs).toBeUndefined();

      const list = (input: RunListInput) => RunList.parse(input);
      const ids = async (input: RunListInput) =>
        (await store.listRuns(list(input), scope(null))).runs.map((r) => r.runId);
      expect(await ids({})).toEqual(['c', 'b', 'a']);
      expect(await ids({ sort: 'started', order: 'asc' })).toEqual(['a', 'b', 'c']);
      // Still running: no time taken, last whichever way.
      expect(await ids({ sort: 'took' })).toEqual(['b', 'a', 'c']);
      expect(await ids({ sort: 'took', order: 'asc' })).toEqual(['a', 'b', 'c']);
      expect(await ids({ sort: 'iterations' })).toEqual(['c', 'a', 'b']);
      expect(await ids({ sort: 'cost' })).toEqual(['b', 'c', 'a']);
      expect(await ids({ sort: 'tokens', order: 'asc' })).toEqual(['b', 'c', 'a']);
      expect(await ids({ sort: 'model', order: 'asc' })).toEqual(['b', 'a', 'c']);
      expect(await ids({ sort: 'model' })).toEqual(['a', 'b', 'c']);
      expect(await ids({ model: 'm-a' })).toEqual(['b']);
      expect(await ids({ minIterations: 3, sort: 'iterations', order: 'asc' })).toEqual(['a', 'c']);
      expect(await ids({ state: 'running' })).toEqual(['c']);
      expect(await ids({ minCostUsd: 0.7 })).toEqual(['c', 'b']);
      // A page at a time gives the whole list's order, for every sort either way (across into the
      // runs without the value where there are any).
      for (const sort of RUN_SORT_KEYS)
        for (const order of ['desc', 'asc'] as const) {
          const pages: string[][] = [];
          let cursor: string | undefined;
          do {
            const page = await store.listRuns(
              list({ sort, order, limit: 1, ...(cursor ? { cursor } : {}) }),
              scope(null),
            );
            pages.push(page.runs.map((r) => r.runId));
            cursor = page.next;
          } while (cursor);
          expect(pages.flat(), `${sort} ${order}`).toEqual(await ids({ sort, order }));
          expect(pages.every((page) => page.length === 1)).toBe(true);
        }
      expect(await ids({ sort: 'took', order: 'desc' })).toEqual(['b', 'a', 'c']);
      expect((await store.listRuns(list({}), scope('globex'))).runs.map((r) => r.runId)).toEqual(['elsewhere']);
      await expect(store.listRuns(list({ cursor: 'not-a-cursor' }), scope(null))).rejects.toThrow(/cursor/);
      // A cursor is for the sort and order that gave it: another's is refused, never read as a value.
      const byCost = await store.listRuns(list({ sort: 'cost', limit: 1 }), scope(null));
      await expect(store.listRuns(list({ sort: 'model', cursor: byCost.next! }), scope(null))).rejects.toThrow(
        /cursor/,
      );
      await expect(
        store.listRuns(list({ sort: 'cost', order: 'asc', cursor: byCost.next! }), scope(null)),
      ).rejects.toThrow(/cursor/);
    });

    it('reports usage per UTC day and agent, in the tenant only', async () => {
      const store = await storeOf();
      await putChain(store, sampleChain('a', { tenant: 'T', startedAt: '2026-02-01T23:30:00-02:00', agentName: 'x' }));
      await putChain(store, sampleChain('b', { tenant: 'T', startedAt: '2026-02-02T05:00:00Z', agentName: 'x' }));
      await putChain(store, sampleChain('c', { tenant: 'T', startedAt: '2026-02-02T06:00:00Z', agentName: 'y' }));
      await putChain(store, sampleChain('d', { tenant: 'T', startedAt: '2026-02-01T12:00:00Z', agentName: 'x' }));
      await putChain(store, sampleChain('e', { tenant: 'U', startedAt: '2026-02-01T12:00:00Z', agentName: 'x' }));
      await putChain(store, sampleChain('f', { tenant: 'T', startedAt: '2026-02-03T00:00:00Z', agentName: 'x' }));
      const rows = await store.usage(scope('T', 'developer'), '2026-02-01T00:00:00Z', '2026-02-03T00:00:00Z');
      const times = (n: number) => ({
        runs: n,
        steps: 9 * n,
        inputTokens: 105 * n,
        outputTokens: 27 * n,
        costUsd: expect.closeTo(0.75 * n, 9),
      });
      expect(rows).toEqual([
        { day: '2026-02-01', agentName: 'x', ...times(1) },
        { day: '2026-02-02', agentName: 'x', ...times(2) },
        { day: '2026-02-02', agentName: 'y', ...times(1) },
      ]);
      expect(await store.usage(scope('T'), '2026-02-01T00:00:00Z', '2026-02-03T00:00:00Z', 'y')).toEqual([
        { day: '2026-02-02', agentName: 'y', ...times(1) },
      ]);
      expect(await store.usage(scope(null), '2026-02-01T00:00:00Z', '2026-02-04T00:00:00Z')).toEqual([]);
    });

    it('deletes ended runs older than the cutoff with their steps, and nothing else', async () => {
      const store = await storeOf();
      await putChain(store, sampleChain('old'), { endedAt: '2026-01-01T00:00:00Z' });
      await putChain(store, sampleChain('new'), { endedAt: '2026-03-01T00:00:00Z' });
      await putChain(store, sampleChain('running'), { state: 'running' });
      expect(await store.deleteEndedBefore('2026-02-01T00:00:00Z')).toBe(1);
      expect(await store.run('old')).toBeUndefined();
      expect(await store.steps('old', { afterStep: 0, limit: 10 })).toEqual([]);
      expect((await store.run('new'))?.endedAt).toBe('2026-03-01T00:00:00.000Z');
      expect(await store.run('running')).toBeDefined();
      expect(await store.deleteEndedBefore('2026-02-01T00:00:00Z')).toBe(0);
    });

    it('keeps an import mark: set by an import with temporalGone, kept by a later write without it and by retention', async () => {
      const store = await storeOf();
      const imported = {
        importedAt: '2026-04-01T00:00:00.000Z',
        importedBy: 'carol',
        from: 'bundle.json',
        exportedAt: '2026-03-31T00:00:00.000Z',
        finalHash: 'sha256:abc',
        anchor: 'trusted_key' as const,
        keyId: 'k1',
      };
      await putChain(store, sampleChain('imported'), { endedAt: '2026-01-01T00:00:00Z', complete: true, imported });
      await putChain(store, sampleChain('projected'), { endedAt: '2026-01-01T00:00:00Z' });
      const run = await store.run('imported');
      expect(run).toMatchObject({ imported, temporalGone: true, complete: true });
      expect(StoredRun.parse(run)).toEqual(run);
      expect((await store.run('projected'))?.imported).toBeUndefined();
      await store.putRun(runUpdateOf(sampleChain('imported'), { endedAt: '2026-01-01T00:00:00Z' }));
      expect((await store.run('imported'))?.imported).toEqual(imported);
      expect(await store.deleteEndedBefore('2026-02-01T00:00:00Z')).toBe(1);
      expect(await store.run('projected')).toBeUndefined();
      expect((await store.run('imported'))?.temporalGone).toBe(true);
    });

    it('marks a run behind past its last step until steps or markBehind catch it up', async () => {
      const store = await storeOf();
      const chain = sampleChain('run-1');
      await store.putRun(runUpdateOf(chain));
      await store.putSteps('run-1', chain.steps.slice(0, 4));
      await store.noteProgress('run-1', 'tool_calling', 4);
      expect((await store.run('run-1'))?.behindSince).toBeUndefined();
      expect((await store.run('run-1'))?.chainStatus).toBe('tool_calling');
      await store.noteProgress('run-1', 'thinking', 7);
      const since = (await store.run('run-1'))?.behindSince;
      expect(since).toMatch(/^\d{4}-\d\d-\d\dT/);
      await store.noteProgress('run-1', 'thinking', 8);
      expect((await store.run('run-1'))?.behindSince).toBe(since);
      await store.putSteps('run-1', chain.steps.slice(4, 6));
      expect((await store.run('run-1'))?.behindSince).toBe(since);
      await store.putSteps('run-1', chain.steps.slice(6, 8));
      expect((await store.run('run-1'))?.behindSince).toBeUndefined();
      await store.markBehind('run-1', true);
      expect((await store.run('run-1'))?.behindSince).toBeDefined();
      await store.markBehind('run-1', false);
      expect((await store.run('run-1'))?.behindSince).toBeUndefined();
      await store.markTemporalGone('run-1');
      expect((await store.run('run-1'))?.temporalGone).toBe(true);
    });

    it('lists run ids oldest first, a page at a time, all or the incomplete', async () => {
      const store = await storeOf();
      for (let i = 1; i <= 5; i++)
        await store.putRun(
          runUpdateOf(sampleChain(`r-${6 - i}`, { startedAt: `2026-01-0${i}T00:00:00Z` }), { complete: i % 2 === 0 }),
        );
      expect(await store.runIds({ limit: 2 })).toEqual(['r-5', 'r-4']);
      expect(await store.runIds({ limit: 2, afterRunId: 'r-4' })).toEqual(['r-3', 'r-2']);
      expect(await store.runIds({ limit: 2, afterRunId: 'r-2' })).toEqual(['r-1']);
      expect(await store.runIds({ limit: 10, incompleteOnly: true })).toEqual(['r-5', 'r-3', 'r-1']);
      expect(await store.runIds({ limit: 10, incompleteOnly: true, afterRunId: 'r-5' })).toEqual(['r-3', 'r-1']);
    });

    it('keeps a step of 2 MiB of JSON and refuses one byte more, writing nothing of its batch', async () => {
      const store = await storeOf();
      await store.putRun(runUpdateOf(sampleChain('run-1')));
      const sized = (n: number, bytes: number): ReasoningStep => {
        const base = testStep(n, full, { type: 'thinking', thought: '' });
        const room = bytes - JSON.stringify(base).length;
        return { ...base, thought: 'x'.repeat(room) } as ReasoningStep;
      };
      const atLimit = sized(1, MAX_STORED_STEP_BYTES);
      expect(JSON.stringify(atLimit).length).toBe(MAX_STORED_STEP_BYTES);
      await store.putSteps('run-1', [atLimit]);
      expect(await store.steps('run-1', { afterStep: 0, limit: 1 })).toEqual([atLimit]);
      const past = sized(3, MAX_STORED_STEP_BYTES + 1);
      const small = testStep(2, full, { type: 'thinking', thought: 'small' });
      await expect(store.putSteps('run-1', [small, past])).rejects.toThrow(StepTooLargeError);
      await expect(store.putSteps('run-1', [past])).rejects.toThrow(/3 of run run-1 is 2097153 bytes/);
      expect((await store.run('run-1'))?.stepCount).toBe(1);
    });

    it("searches the first 16 KiB of a step's text", async () => {
      const store = await storeOf();
      await store.putRun(runUpdateOf(sampleChain('run-1')));
      const pad = 'a'.repeat(MAX_SEARCH_TEXT_BYTES - 4);
      await store.putSteps('run-1', [
        testStep(1, full, { type: 'thinking', thought: `${pad}WXYZ` }),
        testStep(2, full, { type: 'thinking', thought: `${pad}wxyzQ` }),
        testStep(3, full, { type: 'thinking', thought: `${'é'.repeat(MAX_SEARCH_TEXT_BYTES / 2 - 1)}éq` }),
      ]);
      const numbers = async (text: string) =>
        (await store.steps('run-1', { afterStep: 0, limit: 10, filter: { text } })).map((s) => s.stepNumber);
      expect(await numbers('awxyz')).toEqual([1, 2]);
      expect(await numbers('wxyzq')).toEqual([]);
      expect(await numbers('ééé')).toEqual([3]);
      expect(await numbers('éq')).toEqual([]);
      // The step itself is kept whole.
      expect((await store.steps('run-1', { afterStep: 1, limit: 1 }))[0]).toMatchObject({ thought: `${pad}wxyzQ` });
    });

    it('keeps text with a NUL character, and finds it', async () => {
      const store = await storeOf();
      const chain = sampleChain('run-1');
      await store.putRun(runUpdateOf({ ...chain, task: 'a\u0000b' }));
      const step = testStep(1, full, { type: 'thinking', thought: 'before\u0000after' });
      await store.putSteps('run-1', [step]);
      expect(await store.steps('run-1', { afterStep: 0, limit: 1, filter: { text: 'after' } })).toEqual([step]);
      expect((await store.head('run-1'))?.head.task).toBe('a\u0000b');
    });

    it('answers ping and migrates again harmlessly', async () => {
      const store = await storeOf();
      await store.ping();
      await store.migrate();
      await putChain(store);
      await store.migrate();
      expect((await store.run('run-1'))?.stepCount).toBe(9);
    });
  });
}
