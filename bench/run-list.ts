import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ReasoningChain, ReasoningStep } from '../src/domain';
import { RUN_SORT_KEYS, RunList, type RunSortKey } from '../src/domain/store';
import type { ChainStore } from '../src/store/chain-store';
import { openChainStore } from '../src/store/open-chain-store';
import type { StoreSettings } from '../src/store/store-settings';
import { startTestPostgres } from '../test/helpers/postgres';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { seededRandom } from './chain-store-reads';
import { measurement, type FigureBody, type Measurement } from './lib/figure';
import { mapLimit } from './lib/map-limit';
import { p95, summarise } from './lib/stats';

/** The bound on a page of the run list (the viewer's page of 50). */
const PAGE_TARGET = { op: '<', value: 100 } as const;
const TENANTS = ['t0', 't1', 't2', 't3'];
const PAGE = 50;
/** How deep the deep page is: the page after this many (fewer when a tenant has fewer runs). */
const DEEPEST = 20;

/**
 * Figure 17: a run list of many runs from the chain store. N root runs (100,000 at full size)
 * written through the store's own write path (putRun, putSteps: a model call and its reply, a
 * tool call and its result, an answer), spread over four tenants, with their iterations, costs,
 * tokens, models and times drawn at random; then a page of 50 of one tenant's runs sorted by each
 * column, either way, first and 20 pages deep (keyset cursor), read through ChainStore.listRuns.
 */
export async function measureRunList(ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const { runs, reads } = config.runList;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-run-list-'));
  const postgres = await startTestPostgres();
  const rows: Measurement[] = [];
  const deep = Math.max(1, Math.min(DEEPEST, Math.floor(runs / TENANTS.length / PAGE) - 1));
  const details: Record<string, unknown> = { runs, reads, tenants: TENANTS.length, page: PAGE, deep };
  try {
    const settings: StoreSettings[] = [
      { kind: 'sqlite', file: path.join(dir, 'list.sqlite') },
      { kind: 'postgres', url: postgres.urlFor('postgres') },
    ];
    for (const where of settings) {
      const store = await openChainStore(where);
      if (!store) throw new Error(`no store opened for ${where.kind}`);
      try {
        ctx.log(`runlist: ${store.kind}: writing ${runs} runs`);
        const seedMs = await seed(store, runs);
        const first: number[] = [];
        const deepReads: number[] = [];
        const random = seededRandom(17);
        for (let i = 0; i < reads; i++)
          for (const sort of RUN_SORT_KEYS)
            for (const order of ['desc', 'asc'] as const) {
              const scope = { tenant: TENANTS[Math.floor(random() * TENANTS.length)]!, role: 'developer' as const };
              first.push(await timed(() => store.listRuns(RunList.parse({ sort, order, limit: PAGE }), scope)));
              deepReads.push(await deepPage(store, sort, order, scope, deep));
            }
        rows.push(
          measurement(`${store.kind}: ${runs} runs written (putRun, putSteps)`, seedMs / 1000, 's'),
          measurement(`${store.kind}: first page of ${PAGE}, any sort either way, p95`, p95(first), 'ms', {
            target: PAGE_TARGET,
          }),
          measurement(`${store.kind}: page ${deep + 1} by its cursor, p95`, p95(deepReads), 'ms', {
            target: PAGE_TARGET,
          }),
        );
        details[store.kind] = { seedMs, first: summarise(first), deep: summarise(deepReads) };
      } finally {
        await store.close();
      }
    }
  } finally {
    await postgres.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { measurements: rows, details };
}

async function timed(read: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await read();
  return performance.now() - started;
}

/** The time of the page after `pages` pages (the cursor walk before it is not counted). */
async function deepPage(
  store: ChainStore,
  sort: RunSortKey,
  order: 'asc' | 'desc',
  scope: { tenant: string; role: 'developer' },
  pages: number,
): Promise<number> {
  let cursor: string | undefined;
  for (let i = 0; i < pages; i++) {
    const page = await store.listRuns(
      RunList.parse({ sort, order, limit: PAGE, ...(cursor ? { cursor } : {}) }),
      scope,
    );
    cursor = page.next;
    if (!cursor) throw new Error(`fewer than ${pages * PAGE} runs sorted by ${sort} in tenant ${scope.tenant}`);
  }
  return timed(() => store.listRuns(RunList.parse({ sort, order, limit: PAGE, cursor }), scope));
}

/** Writes `count` runs of five steps each, four at a time (PostgreSQL takes them in parallel). */
async function seed(store: ChainStore, count: number): Promise<number> {
  const random = seededRandom(82);
  const started = performance.now();
  const chains = Array.from({ length: count }, (_, i) => chainOf(i, random));
  const draws = chains.map(() => ({ tookMs: Math.floor(random() * 600_000), running: random() < 0.05 }));
  await mapLimit(count, store.kind === 'postgres' ? 4 : 1, async (i) => {
    const chain = chains[i]!;
    const { tookMs, running } = draws[i]!;
    const { steps, ...head } = chain;
    await store.putRun({
      runId: chain.chainId,
      head,
      state: running ? 'running' : 'completed',
      ...(running
        ? {}
        : { terminationReason: 'success', endedAt: new Date(Date.parse(chain.startedAt) + tookMs).toISOString() }),
    });
    await store.putSteps(chain.chainId, steps);
  });
  return performance.now() - started;
}

function chainOf(i: number, random: () => number): ReasoningChain {
  const iteration = 1 + Math.floor(random() * 50);
  const startedAt = new Date(Date.UTC(2026, 10, 1) + i * 30_000).toISOString();
  const at = (n: number) => new Date(Date.parse(startedAt) + n * 100).toISOString();
  const step = (n: number, body: Record<string, unknown>) =>
    ({
      stepId: `r${i}-s${n}`,
      stepNumber: n,
      timestamp: at(n),
      iteration,
      visibility: { level: 'full' },
      ...body,
    }) as ReasoningStep;
  const model = ['claude-sonnet-4-6', 'claude-haiku-4-5', 'offline-model'][Math.floor(random() * 3)]!;
  return {
    schemaVersion: 1,
    chainId: `list-${i}`,
    agentName: `agent-${i % 7}`,
    task: `Bench run ${i}`,
    startedAt,
    status: 'completed',
    caller: { id: 'bench', roles: [], tenant: TENANTS[i % TENANTS.length]! },
    steps: [
      step(1, {
        type: 'tool_call',
        toolCall: { toolType: 'llm', toolName: model, arguments: {}, correlationId: `m${i}` },
      }),
      step(2, {
        type: 'tool_result',
        model,
        usage: {
          inputTokens: Math.floor(random() * 100_000),
          outputTokens: Math.floor(random() * 2_000),
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        },
        costUsd: Math.round(random() * 1_000_000) / 1_000_000,
        toolResult: { correlationId: `m${i}`, success: true, result: { text: 'ok' }, durationMs: 100 },
      }),
      step(3, {
        type: 'tool_call',
        toolCall: { toolType: 'external', toolName: 'lookup', arguments: { q: i }, correlationId: `t${i}` },
      }),
      step(4, {
        type: 'tool_result',
        toolResult: { correlationId: `t${i}`, success: true, result: { n: i }, durationMs: 5 },
      }),
      step(5, {
        type: 'synthesis',
        synthesis: { sources: [`r${i}-s4`], conclusion: `Done ${i}`, terminationReason: 'success' },
      }),
    ],
  } as unknown as ReasoningChain;
}
