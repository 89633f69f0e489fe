import type { ReasoningChain } from '../src/domain';
import type { ChainStore } from '../src/store/chain-store';

/** Steps per putSteps call when a chain is written whole: one transaction each. */
const WRITE_BATCH = 500;
/** Steps a page read asks for, as the viewer and `thoughtline chain` do. */
export const PAGE_STEPS = 100;

/**
 * Writes a chain into the store as the projection's catch-up does: the run's head, then its raw
 * (auditor's) steps in order. Returns the time taken. `state` is the run's as Temporal says it.
 */
export async function projectChain(
  store: ChainStore,
  chain: ReasoningChain,
  state: 'running' | 'completed' = 'running',
): Promise<number> {
  const started = performance.now();
  const { steps, ...head } = chain;
  await store.putRun({ runId: chain.chainId, head, state });
  for (let i = 0; i < steps.length; i += WRITE_BATCH)
    await store.putSteps(chain.chainId, steps.slice(i, i + WRITE_BATCH));
  const last = steps.at(-1)?.stepNumber ?? 0;
  await store.noteProgress(chain.chainId, chain.status, last);
  return performance.now() - started;
}

/** A deterministic stream of numbers in [0, 1) (mulberry32), so every source reads the same pages. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` page starts (`afterStep`) spread at random over the whole chain. */
export function randomPageStarts(steps: number, n: number, seed: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => Math.floor(random() * Math.max(1, steps - PAGE_STEPS)));
}

export interface PageReads {
  samplesMs: number[];
  /** The `source` every answer named (the route says where it read from). */
  sources: string[];
}

/**
 * `GET /v1/runs/{id}/chain?afterStep=K&limit=100&source=…` for each K, one after another, through
 * the real server over HTTP; each answer is checked to start at step K+1 and hold a full page.
 */
export async function timePageReads(
  server: { url: string; token: string },
  runId: string,
  starts: readonly number[],
  /** undefined: leave the parameter out (a server without the store routes reads from Temporal). */
  source: 'store' | 'temporal' | undefined,
): Promise<PageReads> {
  const samplesMs: number[] = [];
  const sources: string[] = [];
  for (const afterStep of starts) {
    const url = `${server.url}/v1/runs/${encodeURIComponent(runId)}/chain?afterStep=${afterStep}&limit=${PAGE_STEPS}${source ? `&source=${source}` : ''}&view=auditor`;
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${server.token}` } });
    const body = (await response.json()) as { chain?: { steps?: { stepNumber: number }[] }; source?: string };
    samplesMs.push(performance.now() - started);
    if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    const steps = body.chain?.steps;
    const first = steps?.[0]?.stepNumber;
    if (first !== afterStep + 1 || steps?.length !== PAGE_STEPS)
      throw new Error(`GET ${url}: a page from step ${first} of ${steps?.length} steps, wanted ${afterStep + 1}…`);
    sources.push(body.source ?? 'unnamed');
  }
  return { samplesMs, sources };
}

/** Where the server answers a store read from (`store` once the store routes are merged), or undefined when it refuses it. */
export async function storeReadSource(
  server: { url: string; token: string },
  runId: string,
): Promise<string | undefined> {
  const url = `${server.url}/v1/runs/${encodeURIComponent(runId)}/chain?afterStep=0&limit=${PAGE_STEPS}&source=store&view=auditor`;
  const response = await fetch(url, { headers: { authorization: `Bearer ${server.token}` } });
  const body = (await response.json().catch(() => ({}))) as { source?: string };
  return response.ok ? body.source : undefined;
}
