import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPlanCacheActivities, type PlanCacheKey } from '../../../src/activities/cache/plan-cache-activities';
import { storeCached } from '../../../src/activities/cache/cached-result';
import { MAX_CACHED_VALUE_BYTES } from '../../../src/activities/cache/run-cache';
import { MAX_SIMILAR_PLAN_CANDIDATES } from '../../../src/activities/cache/similar-plan';
import { openSqliteRunCache } from '../../../src/activities/cache/sqlite-run-cache';
import { createToolActivities } from '../../../src/activities/tool-activities';
import { goalKey, planToolsKey, type Plan, type ToolInvocation, type ToolOutput } from '../../../src/domain';
import { cacheHitText } from '../../../src/domain/planning/cache-hit-text';
import { defineTool } from '../../../src/tools/define-tool';
import { createRedactor } from '../../../src/tools/redact-secrets';
import { createToolRegistry } from '../../../src/tools/tool-registry';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cache-activities-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const freshCache = () => openSqliteRunCache(path.join(dir, `${Math.random()}.sqlite`));
const env = (workflowId: string) =>
  new MockActivityEnvironment({
    workflowExecution: { workflowId, runId: 'r' },
  } as ConstructorParameters<typeof MockActivityEnvironment>[0]);

describe('runTool with a cache request', () => {
  /** A tool that returns a string of `chars` characters and counts its calls. */
  function sized(chars: number) {
    const counter = { calls: 0 };
    const tool = defineTool({
      name: 'big',
      description: 'Returns a long text',
      input: z.object({}),
      execute: () => {
        counter.calls += 1;
        return 'y'.repeat(chars);
      },
    });
    const activities = createToolActivities({
      tools: createToolRegistry([tool]),
      redact: createRedactor([]),
      heartbeatEveryMs: 60_000,
      cache: freshCache(),
    });
    return { activities, counter };
  }
  const call = (maxResultChars: number): ToolInvocation => ({
    toolName: 'big',
    arguments: {},
    idempotencyKey: 'wf/1',
    maxResultChars,
    cache: { tenant: 'default', ttlMs: 60_000 },
  });
  // The stored JSON is {"result":"…","truncated":false}: 33 bytes besides the text.
  const OVERHEAD = JSON.stringify({ result: '', truncated: false }).length;

  it('stores a result at the 256 KiB limit and answers the next call from it, with where it came from', async () => {
    const { activities, counter } = sized(MAX_CACHED_VALUE_BYTES - OVERHEAD);
    const limit = MAX_CACHED_VALUE_BYTES;
    const first = (await env('run-1').run(activities.runTool, call(limit))) as ToolOutput;
    expect(first.cacheHit).toBeUndefined();
    const second = (await env('run-2').run(activities.runTool, call(limit))) as ToolOutput;
    expect(counter.calls).toBe(1);
    expect(second.cacheHit).toMatchObject({ kind: 'tool', fromRun: 'run-1' });
    expect(second.result).toBe(first.result);
    // Another result limit is another request: the tool runs.
    await env('run-3').run(activities.runTool, call(limit - 1));
    expect(counter.calls).toBe(2);
  });

  it('does not store a result one byte past the limit: the next call runs the tool', async () => {
    const { activities, counter } = sized(MAX_CACHED_VALUE_BYTES - OVERHEAD + 1);
    const limit = MAX_CACHED_VALUE_BYTES;
    await env('run-1').run(activities.runTool, call(limit));
    const second = (await env('run-2').run(activities.runTool, call(limit))) as ToolOutput;
    expect(counter.calls).toBe(2);
    expect(second.cacheHit).toBeUndefined();
  });

  it('never stores an error', async () => {
    let calls = 0;
    const tool = defineTool({
      name: 'flaky',
      description: 'Fails',
      input: z.object({}),
      retry: { maximumAttempts: 1, initialIntervalMs: 1, backoffCoefficient: 1 },
      execute: () => {
        calls += 1;
        throw new Error('down');
      },
    });
    const activities = createToolActivities({
      tools: createToolRegistry([tool]),
      redact: createRedactor([]),
      heartbeatEveryMs: 60_000,
      cache: freshCache(),
    });
    const failing: ToolInvocation = { ...call(1_000), toolName: 'flaky' };
    await expect(env('run-1').run(activities.runTool, failing)).rejects.toThrow(/down/);
    await expect(env('run-2').run(activities.runTool, failing)).rejects.toThrow(/down/);
    expect(calls).toBe(2);
  });
});

describe('the plan cache activities', () => {
  const plan: Plan = {
    tasks: [
      { id: 't1', description: 'Find the report', dependencies: [], requiredTools: ['search'], status: 'pending' },
      { id: 't2', description: 'Summarise it', dependencies: ['t1'], requiredTools: [], status: 'pending' },
    ],
    source: 'model',
    version: 1,
  };
  const key = (goal: string, tools: string[], tenant = 'acme') => ({
    cache: { tenant, ttlMs: 60_000 },
    goalKey: goalKey(goal),
    tools: planToolsKey(tools),
  });

  it('finds a plan stored for a similar goal with the same tools, for the same tenant only', async () => {
    const activities = createPlanCacheActivities(freshCache());
    const stored = await env('planner-1').run(activities.storeCachedPlan, {
      ...key('Summarise the Q3 report', ['search', 'calc']),
      plan,
    });
    expect(stored).toBe(true);
    const found = await env('planner-2').run(
      activities.lookupCachedPlan,
      key('summarise Q3 report, please', ['calc', 'search']),
    );
    expect(found).toMatchObject({ plan, hit: { kind: 'plan', fromRun: 'planner-1' } });
    expect(await env('p').run(activities.lookupCachedPlan, key('Summarise the Q3 report', ['search']))).toBeNull();
    expect(
      await env('p').run(activities.lookupCachedPlan, key('Summarise the Q4 report', ['search', 'calc'])),
    ).toBeNull();
    expect(
      await env('p').run(activities.lookupCachedPlan, key('Summarise the Q3 report', ['search', 'calc'], 'globex')),
    ).toBeNull();
  });

  /** A lookup through the activity environment, typed. */
  const lookup = (activities: ReturnType<typeof createPlanCacheActivities>, input: PlanCacheKey) =>
    env('reader').run(activities.lookupCachedPlan, input) as ReturnType<typeof activities.lookupCachedPlan>;

  it('falls back to the most similar stored goal with the same tools, and says how alike; far goals, numbers and other tools miss', async () => {
    let at = 1_000_000;
    const cache = openSqliteRunCache(path.join(dir, `${Math.random()}.sqlite`), { now: () => at });
    const activities = createPlanCacheActivities(cache);
    const store = async (run: string, goal: string) => {
      at += 1_000;
      expect(await env(run).run(activities.storeCachedPlan, { ...key(goal, ['search', 'calc']), plan })).toBe(true);
    };
    await store(
      'weather-1',
      'Find the detailed hourly weather forecast for Paris tomorrow and summarise the wind speed',
    );
    await store('sales-1', 'Summarise the Q3 sales report for the board');
    // One word of ten differs ("today"): the exact key misses, 9 of 11 words are shared.
    const near = key('Find the detailed hourly weather forecast for Paris today and summarise the wind speed', [
      'calc',
      'search',
    ]);
    const found = await lookup(activities, near);
    expect(found?.plan).toEqual(plan);
    expect(found?.hit).toMatchObject({ kind: 'plan', fromRun: 'weather-1' });
    expect(found?.hit.similarity).toBeCloseTo(9 / 11);
    expect(cacheHitText(found!.hit)).toMatch(
      /^reused from a run with a similar goal, 81% alike: cached from run weather-1, /,
    );
    // 1 asks for the same goal key.
    expect(await lookup(activities, { ...near, similarity: 1 })).toBeNull();
    // Three words differ: 7 of 11 shared, below the default 0.8; found at 0.6.
    const farther = key('Find the weather forecast for Paris today and summarise the wind speed', ['search', 'calc']);
    expect(await lookup(activities, farther)).toBeNull();
    expect((await lookup(activities, { ...farther, similarity: 0.6 }))?.hit.similarity).toBeCloseTo(7 / 11);
    // Another quarter is another goal (a different number), however much else matches.
    expect(
      await lookup(activities, {
        ...key('Summarise the Q4 sales report for the board', ['search', 'calc']),
        similarity: 0.5,
      }),
    ).toBeNull();
    // Other tools, or another tenant: never, however alike.
    const sales = 'Summarise the Q3 sales report for our board';
    expect(await lookup(activities, { ...key(sales, ['search']), similarity: 0.5 })).toBeNull();
    expect(await lookup(activities, { ...key(sales, ['search', 'calc'], 'globex'), similarity: 0.5 })).toBeNull();
    // The same tenant and tools, words reordered and one more: 5 of 6 alike.
    const reordered = await lookup(activities, key('board sales report Q3 summarise quickly', ['calc', 'search']));
    expect(reordered?.hit).toMatchObject({ fromRun: 'sales-1', similarity: 5 / 6 });
  });

  it('never reuses a plan for the reverse goal: the same words in other roles are another goal', async () => {
    let at = 1_000_000;
    const cache = openSqliteRunCache(path.join(dir, `${Math.random()}.sqlite`), { now: () => at });
    const activities = createPlanCacheActivities(cache);
    at += 1_000;
    const goal = 'Convert the invoice total from USD to EUR at the daily ECB rate and show the bank fee';
    expect(await env('usd-eur').run(activities.storeCachedPlan, { ...key(goal, ['convert']), plan })).toBe(true);
    const reverse = 'Convert the invoice total from EUR to USD at the daily ECB rate and show the bank fee';
    expect(await lookup(activities, { ...key(reverse, ['convert']), similarity: 0.5 })).toBeNull();
    // The same roles in another order are the same goal.
    const reordered = 'At the daily ECB rate, convert the invoice total to EUR from USD and show the bank fee';
    expect((await lookup(activities, key(reordered, ['convert'])))?.hit).toMatchObject({ fromRun: 'usd-eur' });
  });

  it('a tie goes to the newest stored goal', async () => {
    let at = 1_000_000;
    const cache = openSqliteRunCache(path.join(dir, `${Math.random()}.sqlite`), { now: () => at });
    const activities = createPlanCacheActivities(cache);
    for (const [run, goal] of [
      ['older', 'alpha beta gamma delta'],
      ['newer', 'alpha beta gamma epsilon'],
    ] as const) {
      at += 1_000;
      await env(run).run(activities.storeCachedPlan, { ...key(goal, ['search']), plan });
    }
    // 'alpha beta gamma' is 3 of 4 alike to each.
    const found = await lookup(activities, { ...key('alpha beta gamma', ['search']), similarity: 0.75 });
    expect(found?.hit).toMatchObject({ fromRun: 'newer', similarity: 0.75 });
  });

  it('scores at most the newest MAX_SIMILAR_PLAN_CANDIDATES stored plans of the tenant', async () => {
    let at = 1_000_000;
    const cache = openSqliteRunCache(path.join(dir, `${Math.random()}.sqlite`), { now: () => at });
    const activities = createPlanCacheActivities(cache);
    const req = { tenant: 'acme', ttlMs: 60_000 };
    const put = (goal: string) => {
      at += 1;
      expect(storeCached(cache, req, 'plan', goalKey(goal), ['search'], plan, 'run')).toBe(true);
    };
    put('alpha beta gamma delta epsilon');
    for (let i = 1; i < MAX_SIMILAR_PLAN_CANDIDATES; i++) put(`unrelated goal number ${i}`);
    const near = key('alpha beta gamma delta', ['search']);
    expect((await lookup(activities, near))?.hit.similarity).toBe(0.8);
    put('one more unrelated goal');
    expect(await lookup(activities, near)).toBeNull();
  });

  it('misses without a store', async () => {
    const activities = createPlanCacheActivities(undefined);
    expect(await env('p').run(activities.lookupCachedPlan, key('x', []))).toBeNull();
    expect(await env('p').run(activities.storeCachedPlan, { ...key('x', []), plan })).toBe(false);
  });
});
