import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/activities/models/anthropic/anthropic-provider';
import { httpError, startFakeMessagesServer } from '../../src/testing';
import { bySize, chaosSettings } from './chaos-settings';
import { describeStorm, planStorm, type StormPlan } from './lib/fault-storm-plan';
import { stormProblems } from './lib/fault-storm-checks';
import { createRunRouter, type RunRouter } from './lib/fault-run-router';
import { runPool, withDeadline } from './lib/fault-run-pool';
import { createHarness, type AgentHarness, useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';

/**
 * Chaos 3: seeded storms of 429s, 529s, 5xx, dropped and cut connections and hangs, mixed with
 * good replies, from the fake Messages server over real HTTP through the real Anthropic provider,
 * many runs at once on one worker. Every run must end within the bound its storm allows; runs
 * the retry budget covers succeed; the others end `error` with the classification of the fault
 * that ended them, after exactly the attempts the storm allowed.
 */
const { seed } = chaosSettings();
const RUNS = bySize(8, 60);
const CONCURRENCY = bySize(8, 12);
const plans = Array.from({ length: RUNS }, (_, i) => planStorm(seed, i));
/** Room for every batch of runs to take its longest bound: past it the test fails, never hangs. */
const TEST_TIMEOUT_MS = Math.ceil(RUNS / CONCURRENCY) * Math.max(...plans.map((p) => p.boundMs)) + 30_000;

const env = useTestEnv();

async function stormRun(h: AgentHarness, router: RunRouter, plan: StormPlan): Promise<string[]> {
  const fake = await startFakeMessagesServer({ script: [...plan.script] });
  const workflowId = `chaos-storm-${plan.seed}-${randomUUID().slice(0, 8)}`;
  router.set(
    workflowId,
    createAnthropicProvider({ apiKey: 'sk-ant-chaos-0123456789', baseURL: fake.baseUrl, stream: plan.stream }),
  );
  try {
    const handle = await h.agents.start(
      {
        task: `Storm run ${plan.index}`,
        model: {
          provider: 'anthropic',
          model: 'claude-sonnet-4-6',
          maximumAttempts: plan.maximumAttempts,
          timeoutMs: plan.timeoutMs,
          heartbeatTimeoutMs: 3 * plan.timeoutMs,
        },
        maxIterations: plan.calls.length + 2,
      },
      { workflowId },
    );
    const started = Date.now();
    const result = await withDeadline(handle.result(), plan.boundMs, `run ${plan.index}`).catch(
      async (err: unknown) => {
        await handle.terminate('chaos: past its bound').catch(() => undefined);
        throw err;
      },
    );
    const elapsed = Date.now() - started;
    let serverProblem: string | undefined;
    try {
      fake.verify();
    } catch (err) {
      serverProblem = (err as Error).message;
    }
    const events = (await handle.fetchHistory()).events ?? [];
    const problems = stormProblems({ plan, result, events, requests: fake.requests, serverProblem });
    console.log(
      `storm run ${plan.index} seed ${plan.seed}: ${result.terminationReason} in ${elapsed} ms (bound ${plan.boundMs} ms)${problems.length ? ' PROBLEMS' : ''}`,
    );
    return problems;
  } finally {
    router.delete(workflowId);
    await fake.close();
  }
}

describe(`chaos: model fault storms (seed ${seed}, ${RUNS} runs)`, () => {
  it(
    'every run ends within its bound: success when retries suffice, else error with the fault that ended it',
    async () => {
      console.log(`model fault storm: seed ${seed}, ${RUNS} runs (reproduce: CHAOS_SEED=${seed})`);
      const router = createRunRouter('anthropic');
      const h = await createHarness(env, { tools: testTools().tools, models: { anthropic: router.provider } });
      const outcomes = await h.worker.runUntil(runPool(plans, CONCURRENCY, (plan) => stormRun(h, router, plan)));

      const report = outcomes.flatMap((o, i) => {
        const problems = o.ok ? o.value : [String(o.error)];
        return problems.length ? [`${describeStorm(plans[i]!)}\n    - ${problems.join('\n    - ')}`] : [];
      });
      const ends = plans.map((p) => (p.expected.reason === 'success' ? 'success' : `error:${p.expected.failure.type}`));
      console.log(`model fault storm: expected endings ${JSON.stringify(tally(ends))}`);
      expect(report, `seed ${seed}`).toEqual([]);
      // A storm that never both succeeds and fails proves little: the seed must cover both.
      expect(
        ends.some((e) => e === 'success') && ends.some((e) => e !== 'success'),
        `seed ${seed} covers both endings`,
      ).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('model fault storms: cases the seeded storms leave out', () => {
  it('a short API error message holding a lone surrogate ends the run as error, and the worker survives', async () => {
    // The API may echo part of a request in an error; JSON carries a lone surrogate as "\ud800".
    // Under 40 bytes protobufjs encodes the failure message itself, into invalid UTF-8.
    const fake = await startFakeMessagesServer({ script: [httpError(400, { message: 'bad "\uD800"' })] });
    const h = await createHarness(env, {
      tools: [],
      models: { anthropic: createAnthropicProvider({ apiKey: 'sk-ant-chaos-0123456789', baseURL: fake.baseUrl }) },
    });
    const handle = await h.agents.start({
      task: 'surrogate in an error',
      model: { provider: 'anthropic', model: 'claude-sonnet-4-6', timeoutMs: 2_000 },
    });
    try {
      const result = await h.worker.runUntil(withDeadline(handle.result(), 30_000, 'the run'));
      expect(result).toMatchObject({
        terminationReason: 'error',
        error: expect.stringMatching(/^Model call failed: ModelBadRequest: Anthropic API 400: bad "/),
      });
      expect(fake.requests).toHaveLength(1);
    } finally {
      await handle.terminate('chaos: cleanup').catch(() => undefined);
      await fake.close();
    }
  });
});

const tally = (items: string[]): Record<string, number> =>
  items.reduce<Record<string, number>>((acc, k) => ((acc[k] = (acc[k] ?? 0) + 1), acc), {});
