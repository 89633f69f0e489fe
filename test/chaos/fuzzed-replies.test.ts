import { randomUUID } from 'node:crypto';
import type { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../src/activities/models/scripted-model';
import { defineTool } from '../../src/tools/define-tool';
import { bySize, chaosSettings } from './chaos-settings';
import { fuzzProblems } from './lib/fuzz-checks';
import { describeFuzz, fuzzCoverage, planFuzz, type FuzzPlan } from './lib/fuzz-plan';
import { createRunRouter, type RunRouter } from './lib/fault-run-router';
import { runPool, withDeadline } from './lib/fault-run-pool';
import { suiteReplayOptions } from '../helpers/replay-runtime';
import { createHarness, type AgentHarness, useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';

/**
 * Chaos 4: seeded scripts of fuzzed model replies, native and text ReAct: malformed ReAct text,
 * unknown tools, invalid arguments, invalid finishes, failing tools, huge texts and arguments,
 * control characters and lone surrogates, empty text, duplicate tool_use ids, many calls in one
 * turn. Every run must end with its reason and never fail a workflow task, its whole history
 * must replay against the workflow code (determinism), and the chain must record each problem
 * as an error observation or a format-error thought that the model then receives.
 * The worker caches workflows and each history is replayed once at the end: the same check as
 * `maxCachedWorkflows: 0` (a replay per task), at a quarter of the time for runs of many tasks.
 */
const { seed } = chaosSettings();
const RUNS = bySize(10, 100);
const CONCURRENCY = bySize(5, 8);
const RUN_DEADLINE_MS = bySize(45_000, 120_000);

interface RunRecord {
  problems: string[];
  workflowId: string;
  history: temporal.api.history.v1.IHistory;
}

const env = useTestEnv();

async function fuzzRun(h: AgentHarness, router: RunRouter, plan: FuzzPlan): Promise<RunRecord> {
  const model = createScriptedModel(plan.turns.map((t) => t.turn));
  const workflowId = `chaos-fuzz-${plan.seed}-${randomUUID().slice(0, 8)}`;
  router.set(workflowId, model);
  try {
    const handle = await h.agents.start(plan.input, { workflowId });
    const started = Date.now();
    const result = await withDeadline(handle.result(), RUN_DEADLINE_MS, `run ${plan.index}`).catch(
      async (err: unknown) => {
        await handle.terminate('chaos: past its deadline').catch(() => undefined);
        throw err;
      },
    );
    let scriptProblem: string | undefined;
    try {
      model.verify();
    } catch (err) {
      scriptProblem = (err as Error).message;
    }
    const history = await handle.fetchHistory();
    const events = history.events ?? [];
    const problems = fuzzProblems({ plan, result, events, requests: model.calls, scriptProblem });
    console.log(
      `fuzz run ${plan.index} seed ${plan.seed}: ${result.terminationReason} after ${plan.turns.length} turns, ${events.length} events, in ${Date.now() - started} ms${problems.length ? ' PROBLEMS' : ''}`,
    );
    return { problems, workflowId, history };
  } finally {
    router.delete(workflowId);
  }
}

/** Replays each history against the suite's workflow bundle; a determinism error is a problem of its run. */
async function replayProblems(records: readonly RunRecord[]): Promise<Map<string, string>> {
  const failed = new Map<string, string>(records.map((r) => [r.workflowId, 'its history was never replayed']));
  const histories = records.map(({ workflowId, history }) => ({ workflowId, history }));
  for await (const replay of Worker.runReplayHistories(suiteReplayOptions(), histories)) {
    if (replay.error) failed.set(replay.workflowId, `replay failed: ${String(replay.error)}`);
    else failed.delete(replay.workflowId);
  }
  return failed;
}

describe(`chaos: fuzzed model replies (seed ${seed}, ${RUNS} runs)`, () => {
  it(
    'every run ends with its reason, no workflow task fails, and the chain records each bad turn',
    async () => {
      console.log(`fuzzed replies: seed ${seed}, ${RUNS} runs (reproduce: CHAOS_SEED=${seed})`);
      const plans = Array.from({ length: RUNS }, (_, i) => planFuzz(seed, i));
      console.log(`fuzzed replies: turns by kind ${JSON.stringify(fuzzCoverage(plans))}`);
      const router = createRunRouter('scripted');
      const h = await createHarness(env, {
        tools: testTools().tools,
        models: { scripted: router.provider },
      });
      const outcomes = await h.worker.runUntil(runPool(plans, CONCURRENCY, (plan) => fuzzRun(h, router, plan)));
      const replayed = await replayProblems(outcomes.flatMap((o) => (o.ok ? [o.value] : [])));
      const report = outcomes.flatMap((o, i) => {
        const replay = o.ok ? replayed.get(o.value.workflowId) : undefined;
        const problems = o.ok ? [...o.value.problems, ...(replay ? [replay] : [])] : [String(o.error)];
        return problems.length ? [`${describeFuzz(plans[i]!)}\n    - ${problems.join('\n    - ')}`] : [];
      });
      expect(report, `seed ${seed}`).toEqual([]);
    },
    RUN_DEADLINE_MS * Math.ceil(RUNS / CONCURRENCY) + 30_000,
  );
});

describe('fuzzed replies: cases the seeded scripts leave out', () => {
  it('an empty native reply is not a successful empty answer, and the chain says so', async () => {
    const model = createScriptedModel([{ content: [] }, { content: [{ type: 'text', text: 'the answer' }] }]);
    const h = await createHarness(env, { tools: testTools().tools, models: { scripted: model } });
    const result = await h.worker.runUntil(async () =>
      withDeadline(
        (await h.agents.start({ task: 'empty reply', model: { provider: 'scripted', model: 'm' } })).result(),
        30_000,
        'the run',
      ),
    );
    expect(
      result.success && result.finalAnswer === '',
      'an empty reply ended the run as a success with no answer',
    ).toBe(false);
    const said = result.chain.steps.some((s) =>
      (s.type === 'thinking' ? s.thought : s.type === 'tool_result' ? (s.toolResult.error ?? '') : '')
        .toLowerCase()
        .includes('empty'),
    );
    expect(said || /empty/i.test(result.error ?? ''), 'the chain does not record the empty reply').toBe(true);
  });

  it('a short tool error quoting a lone surrogate from the arguments is an observation, and the worker survives', async () => {
    // Tools often quote their input in errors; the model's JSON may carry "\ud800". Under 40 bytes
    // protobufjs encodes the failure message itself, surrogate and all, into invalid UTF-8.
    const open = defineTool({
      name: 'open',
      description: 'Opens a file',
      input: z.object({ path: z.string() }),
      retry: { maximumAttempts: 1 },
      execute: ({ path }) => {
        throw new Error(`no file ${path}`);
      },
    });
    const model = createScriptedModel([
      { content: [{ type: 'tool_use', id: 'toolu_surrogate', name: 'open', input: { path: 'a\uD800' } }] },
      { content: [{ type: 'text', text: 'the file is missing' }] },
    ]);
    const h = await createHarness(env, { tools: [open], models: { scripted: model } });
    const handle = await h.agents.start({ task: 'open a file', model: { provider: 'scripted', model: 'm' } });
    try {
      const result = await h.worker.runUntil(withDeadline(handle.result(), 30_000, 'the run'));
      expect(result).toMatchObject({ terminationReason: 'success', finalAnswer: 'the file is missing' });
      const observed = result.chain.steps.find(
        (s) => s.type === 'tool_result' && s.toolResult.correlationId === 'toolu_surrogate',
      );
      expect(observed?.type === 'tool_result' && observed.toolResult).toMatchObject({
        success: false,
        error: expect.stringContaining('no file a'),
      });
    } finally {
      await handle.terminate('chaos: cleanup').catch(() => undefined);
    }
  });
});
