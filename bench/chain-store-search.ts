import type { ReasoningChain, ReasoningStep } from '../src/domain';
import type { ChainStore } from '../src/store/chain-store';
import { projectChain, seededRandom } from './chain-store-reads';

/** Tenants the seeded runs are spread over; the searcher is of the first, so it sees a quarter. */
export const SEARCH_TENANTS = ['t0', 't1', 't2', 't3'] as const;
const AGENTS = 10;
const TOOLS = ['bench_tool', 'files_write', 'http_get', 'sql_query'] as const;
/** Words put into some runs' tool results, so a text search has something rare to find. */
const RARE_WORDS = ['/etc/shadow', 'invoice-7731', 'kubeconfig'] as const;

/**
 * Writes `count` runs into the store, each a copy of one of a few real chains with its own id,
 * agent, tenant, caller, start time, tool name, cost and (about one run in 25) a rare word in a result:
 * what a search over many runs meets, without running `count` runs.
 */
export async function seedSearchRuns(
  store: ChainStore,
  bases: readonly ReasoningChain[],
  count: number,
  prefix: string,
): Promise<number> {
  const random = seededRandom(50);
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    // Drawn independently, so every combination of agent, tenant and tool occurs.
    const pick = (n: number) => Math.floor(random() * n);
    const base = bases[pick(bases.length)]!;
    const tool = TOOLS[pick(TOOLS.length)]!;
    const agent = pick(AGENTS);
    const tenant = SEARCH_TENANTS[pick(SEARCH_TENANTS.length)]!;
    const rare = random() < 0.04 ? RARE_WORDS[pick(RARE_WORDS.length)] : undefined;
    const cost = Math.round(random() * 1_000_000) / 1_000_000;
    const chain: ReasoningChain = {
      ...base,
      chainId: `${prefix}-${i}`,
      agentName: `agent-${agent}`,
      task: `${base.task} #${i}`,
      startedAt: new Date(Date.parse(base.startedAt) - i * 60_000).toISOString(),
      caller: { id: `user-${pick(20)}`, roles: [], tenant },
      steps: base.steps.map((step, n) => varyStep(step, tool, rare, n === 0 ? cost : undefined)),
    };
    await projectChain(store, chain, 'completed');
  }
  return performance.now() - started;
}

/** The run's cost rides on its first step (the bench model's calls cost nothing). */
function varyStep(
  step: ReasoningStep,
  tool: string,
  rare: string | undefined,
  cost: number | undefined,
): ReasoningStep {
  const costed = cost !== undefined ? { ...step, costUsd: cost } : step;
  if (costed.type === 'tool_call' && costed.toolCall.toolName === 'bench_tool')
    return { ...costed, toolCall: { ...costed.toolCall, toolName: tool } };
  if (costed.type === 'tool_result' && rare)
    return { ...costed, toolResult: { ...costed.toolResult, result: `${String(costed.toolResult.result)} ${rare}` } };
  return costed;
}

/** The searches timed, in turn: text, tool, agent and cost filters, and all at once. */
export const SEARCHES: readonly { name: string; query: string }[] = [
  { name: 'text', query: 'text=%2Fetc%2Fshadow' },
  { name: 'tool', query: 'tool=files_write' },
  { name: 'agent', query: 'agent=agent-3' },
  { name: 'cost', query: 'minCostUsd=0.25&maxCostUsd=0.75' },
  { name: 'all four', query: 'text=invoice&tool=http_get&agent=agent-2&minCostUsd=0.1' },
];

/** `GET /v1/search?…` `rounds` times for each search in turn; samples per search name. */
export async function timeSearches(
  server: { url: string; token: string },
  rounds: number,
): Promise<{ samplesMs: Record<string, number[]>; hits: Record<string, number> }> {
  const samplesMs: Record<string, number[]> = {};
  const hits: Record<string, number> = {};
  for (let round = 0; round < rounds; round++) {
    for (const { name, query } of SEARCHES) {
      const url = `${server.url}/v1/search?${query}&limit=100`;
      const started = performance.now();
      const response = await fetch(url, { headers: { authorization: `Bearer ${server.token}` } });
      const body = (await response.json()) as { hits?: unknown[] };
      (samplesMs[name] ??= []).push(performance.now() - started);
      if (!response.ok || !Array.isArray(body.hits))
        throw new Error(`GET ${url}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
      hits[name] = body.hits.length;
    }
  }
  return { samplesMs, hits };
}
