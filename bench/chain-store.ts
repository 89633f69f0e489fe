import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import { AgentClient } from '../src/client/agent-client';
import { createTokenFileAuthenticator } from '../src/server/auth/token-file-authenticator';
import { addToken } from '../src/server/auth/token-file-store';
import { createServer } from '../src/server/create-server';
import type { ReasoningChain } from '../src/domain';
import type { ChainStore } from '../src/store/chain-store';
import { openChainStore } from '../src/store/open-chain-store';
import type { StoreSettings } from '../src/store/store-settings';
import { startTestPostgres } from '../test/helpers/postgres';
import { driveLongChain, type LongChain } from './chain-store-run';
import { PAGE_STEPS, projectChain, randomPageStarts, storeReadSource, timePageReads } from './chain-store-reads';
import { SEARCH_TENANTS, seedSearchRuns, timeSearches } from './chain-store-search';
import { timeSearchesDirect, timeStorePagesDirect } from './chain-store-direct';
import { measureBareEvictedQuery } from './lib/bare-evicted-query';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { benchRun, createBenchModel } from './lib/bench-model';
import { benchTool } from './lib/bench-tools';
import { BENCH_MODEL, withBenchWorker } from './lib/bench-worker';
import { measurement, type FigureBody, type Measurement } from './lib/figure';
import { median, p95, summarise } from './lib/stats';

const PAGE_TARGET = { op: '<', value: 50 } as const;
const SEARCH_TARGET = { op: '<', value: 200 } as const;
/** Real short chains the 1,000 searched runs are copies of. */
const SEARCH_BASES = 5;
/** Page reads from Temporal join back through handovers (seconds each): fewer of them. */
const TEMPORAL_READ_SHARE = 4;

interface DatabaseFigures {
  kind: ChainStore['kind'];
  projectMs: number;
  seedMs: number;
  page: number[];
  sources: string[];
  search: Record<string, number[]>;
  hits: Record<string, number>;
  /** The route, or the store's own method when the server has no search route yet. */
  searchedThrough: string;
  /** The same pages read through ChainStore in-process (head + steps + the view), no HTTP. */
  direct: number[];
  /** Queries the server sent Temporal while answering every page and search from this store. */
  queries: number;
}

/**
 * Figure 12: the chain store. A real run driven past `steps` steps (continue-as-new on the way) and
 * left open on a question, projected into the store on SQLite and on PostgreSQL; random pages of
 * it read over HTTP from a real `createServer` with the store (`source=store`) and, on the same
 * server, from Temporal (`source=temporal`) with the run's worker evicted (`maxCachedWorkflows:
 * 0`), next to the bare SDK's evicted query on a comparable history; then `GET /v1/search` over
 * 1,000 runs; and the Temporal queries the store's reads and a catch-up cost.
 */
export async function measureChainStore(ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const o = config.store;
  const taskQueue = `bench-store-${randomUUID()}`;
  const setup = { model: createBenchModel(), tools: [benchTool()], taskQueue };
  ctx.log(`store: ${SEARCH_BASES} short runs, then one driven to ${o.steps} steps and left waiting on a question`);
  const driven = await withBenchWorker(ctx, setup, async (agents) => {
    const bases: ReasoningChain[] = [];
    const iterationsOf = (i: number) => 3 + 2 * i;
    for (let i = 0; i < SEARCH_BASES; i++) {
      const handle = await agents.start({
        ...benchRun({ iterations: iterationsOf(i) }),
        model: BENCH_MODEL,
        maxIterations: iterationsOf(i) + 2,
        requireThought: false,
      });
      const result = await handle.result();
      if (result.terminationReason !== 'success')
        throw new Error(`short run ${handle.workflowId}: ${result.finalAnswer}`);
      bases.push(await agents.chain(handle.workflowId, 'auditor'));
    }
    const last = bases.at(-1)!;
    const long = await driveLongChain(agents, o.steps, last.steps.length / iterationsOf(SEARCH_BASES - 1));
    return { long, bases };
  });
  const postgres = await startTestPostgres();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-bench-store-'));
  try {
    // Same task queue, no cache: a read from Temporal replays the run's history, as for an evicted run.
    return await withBenchWorker(ctx, { ...setup, workerOptions: { maxCachedWorkflows: 0 } }, async () => {
      const counted = countingAgents(ctx, taskQueue);
      const handle = counted.agents.getHandle(driven.long.workflowId);
      const eventsBefore = (await handle.describe()).historyLength;
      const steps = driven.long.chain.steps.length;
      const starts = randomPageStarts(steps, o.reads, 12);
      const temporalStarts = starts.slice(0, Math.max(5, Math.ceil(o.reads / TEMPORAL_READ_SHARE)));
      const tokens = tokenFile(dir);
      const databases: DatabaseFigures[] = [];
      let temporal: { page: number[]; sources: string[]; queries: number } | undefined;
      const settings: StoreSettings[] = [
        { kind: 'sqlite', file: path.join(dir, 'store.sqlite') },
        { kind: 'postgres', url: postgres.urlFor('postgres') },
      ];
      for (const where of settings) {
        const store = await openChainStore(where);
        if (!store) throw new Error(`no store opened for ${where.kind}`);
        try {
          ctx.log(`store: ${store.kind}: projecting ${steps} steps, then ${o.searchRuns - 1} more runs`);
          const projectMs = await projectChain(store, driven.long.chain);
          const seedMs = await seedSearchRuns(store, driven.bases, o.searchRuns - 1, `bench-search-${store.kind}`);
          const server = await createServer({
            agents: counted.agents,
            auth: createTokenFileAuthenticator({ file: tokens.file }),
            port: 0,
            store,
          });
          try {
            const reader = { url: server.url, token: tokens.reader };
            ctx.log(`store: ${store.kind}: ${o.reads} page reads from the store, then searches`);
            const before = counted.queries();
            const searcher = { url: server.url, token: tokens.searcher };
            const probe = await storeReadSource(reader, driven.long.workflowId);
            const page =
              probe === 'store'
                ? await timePageReads(reader, driven.long.workflowId, starts, 'store')
                : {
                    samplesMs: await timeStorePagesDirect(store, driven.long.workflowId, starts),
                    sources: ['ChainStore'],
                  };
            // Where the time goes: the same pages through ChainStore itself (head, steps, view), no HTTP.
            const direct = await timeStorePagesDirect(store, driven.long.workflowId, starts);
            const searchedThrough = (await searchRouteAnswers(searcher)) ? 'GET /v1/search' : 'ChainStore.searchRuns';
            const search =
              searchedThrough === 'GET /v1/search'
                ? await timeSearches(searcher, o.reads)
                : await timeSearchesDirect(store, { tenant: SEARCH_TENANTS[0], role: 'developer' }, o.reads);
            const queries = counted.queries() - before;
            if (!temporal) {
              ctx.log(`store: ${temporalStarts.length} page reads from Temporal, evicted`);
              const q = counted.queries();
              const read = await timePageReads(
                reader,
                driven.long.workflowId,
                temporalStarts,
                probe ? 'temporal' : undefined,
              );
              temporal = { page: read.samplesMs, sources: read.sources, queries: counted.queries() - q };
            }
            databases.push({
              kind: store.kind,
              projectMs,
              seedMs,
              page: page.samplesMs,
              sources: page.sources,
              search: search.samplesMs,
              hits: search.hits,
              searchedThrough,
              direct,
              queries,
            });
          } finally {
            await server.close();
          }
        } finally {
          await store.close();
        }
      }
      const catchUp = await catchUpCost(counted, driven.long);
      const eventsAfter = (await handle.describe()).historyLength;
      const activities = (await ctx.client.workflow.getHandle(driven.long.workflowId).fetchHistory()).events?.filter(
        (e) => e.activityTaskScheduledEventAttributes,
      ).length;
      if (driven.long.open) await handle.terminate('benchmark done');
      const bareIterations = Math.max(1, Math.round((activities ?? 2) / 2));
      ctx.log(`store: ${o.reads} evicted queries to a bare SDK loop of ${bareIterations} iterations`);
      const bare = await measureBareEvictedQuery(ctx, { iterations: bareIterations, queries: o.reads });
      return figure(o.searchRuns, driven.long, databases, temporal!, bare, {
        eventsBefore,
        eventsAfter,
        catchUp,
        activities,
      });
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await postgres.stop();
  }
}

/** Whether the server has the search route (store-reads' routes merged): else the figure searches through ChainStore. */
async function searchRouteAnswers(searcher: { url: string; token: string }): Promise<boolean> {
  const response = await fetch(`${searcher.url}/v1/search?limit=1`, {
    headers: { authorization: `Bearer ${searcher.token}` },
  });
  await response.arrayBuffer();
  return response.status !== 404;
}

/** An AgentClient whose every workflow query is counted (a query is a billable action on Temporal Cloud). */
function countingAgents(ctx: BenchContext, taskQueue: string) {
  let queries = 0;
  const client = new Client({
    connection: ctx.client.connection,
    namespace: ctx.client.options.namespace,
    interceptors: {
      workflow: [
        {
          query: (input, next) => {
            queries++;
            return next(input);
          },
        },
      ],
    },
  });
  return { agents: new AgentClient({ client, taskQueue }), queries: () => queries };
}

/** What catching up a running run costs: the latest page of its chain after the store's last step, from Temporal. */
async function catchUpCost(counted: ReturnType<typeof countingAgents>, long: LongChain) {
  const before = counted.queries();
  const started = performance.now();
  const last = long.chain.steps.at(-1)?.stepNumber ?? 0;
  await counted.agents.chain(long.workflowId, 'auditor', {
    afterStep: Math.max(0, last - PAGE_STEPS),
    limit: PAGE_STEPS,
  });
  return { queries: counted.queries() - before, ms: performance.now() - started };
}

/** A reader of every view (no tenant: the bench run has none) and a searcher of one tenant. */
function tokenFile(dir: string) {
  const file = path.join(dir, 'tokens.json');
  return {
    file,
    reader: addToken(file, { id: 'bench-reader', roles: ['developer', 'auditor'] }),
    searcher: addToken(file, { id: 'bench-searcher', roles: ['developer'], tenant: SEARCH_TENANTS[0] }),
  };
}

function figure(
  runs: number,
  long: LongChain,
  databases: DatabaseFigures[],
  temporal: { page: number[]; sources: string[]; queries: number },
  bare: Awaited<ReturnType<typeof measureBareEvictedQuery>>,
  actions: { eventsBefore: number; eventsAfter: number; catchUp: { queries: number; ms: number }; activities?: number },
): FigureBody {
  const steps = long.chain.steps.length;
  const rows: Measurement[] = [];
  for (const db of databases) {
    rows.push(
      measurement(
        `${db.kind}: page of ${PAGE_STEPS} at random K of ${steps} steps, source=store, p50`,
        median(db.page),
        'ms',
      ),
      measurement(`${db.kind}: the same, p95`, p95(db.page), 'ms', { target: PAGE_TARGET }),
      measurement(
        `${db.kind}: the same pages through ChainStore in-process (head, steps, view), p95`,
        p95(db.direct),
        'ms',
      ),
    );
    const all = Object.values(db.search).flat();
    rows.push(
      measurement(
        `${db.kind}: GET /v1/search over ${runs} stored runs, p50 (text, tool, agent, cost, all four)`,
        median(all),
        'ms',
      ),
      measurement(`${db.kind}: the same, p95`, p95(all), 'ms', { target: SEARCH_TARGET }),
      measurement(`${db.kind}: Temporal queries sent while answering them all`, db.queries, 'queries'),
    );
  }
  rows.push(
    measurement(`the same pages, source=temporal (worker evicted), p50`, median(temporal.page), 'ms'),
    measurement(`the same, p95`, p95(temporal.page), 'ms'),
    measurement(
      `bare SDK loop evicted query (${bare.iterations} iterations, ${bare.events} events), p50`,
      median(bare.samplesMs),
      'ms',
    ),
    measurement(`the same, p95`, p95(bare.samplesMs), 'ms'),
    measurement(
      'history events the store added to the run (all reads, both databases)',
      actions.eventsAfter - actions.eventsBefore,
      'events',
    ),
    measurement(
      'Temporal queries of one catch-up of the running run (a page after the stored last step)',
      actions.catchUp.queries,
      'queries',
    ),
  );
  return {
    measurements: rows,
    details: {
      run: {
        workflowId: long.workflowId,
        iterations: long.iterations,
        steps,
        continuations: long.continuations,
        state: long.open ? 'running, waiting on its question' : 'completed',
        driveSeconds: long.driveMs / 1000,
        latestRunActivities: actions.activities,
      },
      databases: databases.map((db) => ({
        kind: db.kind,
        projectWholeChainMs: db.projectMs,
        seedSearchRunsMs: db.seedMs,
        page: summarise(db.page),
        pageSources: [...new Set(db.sources)],
        pageSamplesMs: db.page,
        search: Object.fromEntries(Object.entries(db.search).map(([name, s]) => [name, summarise(s)])),
        searchHits: db.hits,
        searchedThrough: db.searchedThrough,
        directPage: summarise(db.direct),
        temporalQueries: db.queries,
      })),
      temporal: {
        page: summarise(temporal.page),
        sources: [...new Set(temporal.sources)],
        queries: temporal.queries,
        samplesMs: temporal.page,
      },
      bare: { ...bare, summary: summarise(bare.samplesMs) },
      catchUp: actions.catchUp,
      how:
        'one createServer per database with the store (token file: a developer+auditor reader, a developer searcher of tenant t0); ' +
        'pages: GET /v1/runs/{id}/chain?afterStep=K&limit=100&view=auditor for K seeded-random across the chain, one at a time over HTTP; ' +
        'the run waits on a question and its only worker has maxCachedWorkflows 0; ' +
        'search: 1,000 runs in the store (the long run and copies of 5 real short chains varied by id, agent, tenant, caller, tool, cost and text), ' +
        "GET /v1/search with each filter in turn, limit 100; queries counted by a client interceptor on the server's AgentClient",
    },
  };
}
