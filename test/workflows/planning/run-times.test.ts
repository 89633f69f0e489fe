import { describe, expect, it } from 'vitest';
import { say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import type { AgentStatus } from '../../../src/domain';
import type { ModelProvider } from '../../../src/activities';
import { modelTimes, type ModelTimes } from '../../../src/domain/chain/model-times';
import { renderSummary } from '../../../src/cli/render/render-step';
import { renderStatus } from '../../../src/cli/render/render-status';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

/**
 * Row 003 #35: a run's result and its status carry its planning time and reasoning time per
 * iteration, added from the model activities' own durations over every Temporal run, so they
 * survive a continue-as-new (whose chain is only a tail).
 */
const env = useTestEnv();

const tasks = [
  { id: 't1', description: 'Look up alpha', dependencies: [] },
  { id: 't2', description: 'Report', dependencies: ['t1'] },
];
/** The plan, twelve lookups (more steps than a handover carries), both tasks done, the answer. */
const script: ScriptedTurn[] = [
  { content: [say(JSON.stringify({ tasks }))] },
  ...Array.from({ length: 12 }, (_, i) => ({ content: [useTool('lookup', { key: `k${i + 1}` }, `l${i + 1}`)] })),
  { content: [useTool('update_task', { task_id: 't1', status: 'completed', note: 'looked up' }, 'u1')] },
  { content: [useTool('update_task', { task_id: 't2', status: 'completed' }, 'u2')] },
  { content: [useTool('finish', { result: 'looked up' }, 'u3')] },
];
/** What each call's activity says it took: the plan 700 ms, every turn 100 ms but the fifth, 400 ms. */
const DURATIONS = [700, ...Array.from({ length: 15 }, (_, i) => (i === 4 ? 400 : 100))];
/** The call held while the test reads the live status: the eighth turn (seven turns have replied). */
const HELD_CALL = 8;

/**
 * The scripted model, each reply saying it took DURATIONS[i]; one call
 * (HELD_CALL) waits until `release` is called, so the test reads the live status mid-run.
 */
function timedModel(): { wrap: (m: ModelProvider) => ModelProvider; held: Promise<void>; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let reached!: () => void;
  const held = new Promise<void>((r) => (reached = r));
  let n = 0;
  const wrap = (m: ModelProvider): ModelProvider => ({
    name: 'scripted',
    complete: async (request, signal, hooks) => {
      const i = n++;
      if (i === HELD_CALL) {
        reached();
        await gate;
      }
      return { ...(await m.complete(request, signal, hooks)), durationMs: DURATIONS[i] ?? 0 };
    },
  });
  return { wrap, held, release };
}

describe('planning and reasoning times in the result and status', () => {
  it('keeps running totals across continue-as-new, in the result, the live status and the CLI', async () => {
    const timed = timedModel();
    const {
      result,
      workflowId,
      observed: seen,
    } = await runScripted(env, {
      script,
      wrap: timed.wrap,
      input: {
        task: 'Look up alpha, then report',
        planning: { reflectEvery: 0 },
        continueAsNewEvery: 3,
        maxIterations: 20,
      },
      during: async ({ h, workflowId }): Promise<{ status: AgentStatus; whole: ModelTimes }> => {
        await timed.held;
        // Two handovers have happened (continueAsNewEvery: 3): the plan was in the first Temporal run.
        const status = await h.agents.status(workflowId);
        timed.release();
        await h.agents.getHandle(workflowId).result();
        // The whole chain, read across every Temporal run.
        return { status, whole: modelTimes((await h.agents.chain(workflowId)).steps) };
      },
    });
    expect(result.terminationReason).toBe('success');
    expect(result.continuations).toBe(4);
    const expected = {
      planningMs: 700,
      planningCalls: 1,
      reasoningMs: 1_800,
      reasoningIterations: 15,
      reasoningPerIterationMs: 120,
      slowestIterationMs: 400,
    };
    expect(result.times).toEqual(expected);
    // The result's chain holds only the last Temporal run's steps: read from it, the plan is gone.
    expect(modelTimes(result.chain.steps).planningCalls).toBe(0);
    // The whole chain, read across every Temporal run, says the same as the running totals.
    expect(seen.whole).toEqual(expected);

    const live = seen.status;
    // Mid-run, after two handovers: the plan's time and the first seven turns.
    expect(live.continuations).toBe(2);
    expect(live.times).toEqual({
      planningMs: 700,
      planningCalls: 1,
      reasoningMs: 1_000,
      reasoningIterations: 7,
      reasoningPerIterationMs: 143,
      slowestIterationMs: 400,
    });
    expect(renderStatus(workflowId, live)).toContain(
      'Time:        planning 0.7 s (1 call) · reasoning 1.0 s over 7 iterations, 0.1 s each, slowest 0.4 s',
    );
    expect(renderSummary(result)).toContain(
      'Time:   planning 0.7 s (1 call) · reasoning 1.8 s over 15 iterations, 0.1 s each, slowest 0.4 s',
    );
  });
});
