import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { useTool } from '../../src/activities/models/scripted-model';
import type { AgentResult, ReasoningStep } from '../../src/domain';
import { MAX_QUEUED_INSTRUCTIONS } from '../../src/workflows/people/steering-inbox';
import { ScriptBook, gateTool, sharedWorker, waitFor } from '../helpers/people-helpers';
import { suiteReplayOptions } from '../helpers/replay-runtime';
import { scriptedInput } from '../helpers/scripted-input';
import { createHarness } from '../helpers/temporal-env';
import { bySize } from './chaos-settings';

const WorkflowTaskFailedCause = temporal.api.enums.v1.WorkflowTaskFailedCause;
/** Temporal's default `limit.maximumSignalsPerExecution`: the server refuses signals past it. */
const SIGNALS_PER_RUN_CAP = 10_000;

/**
 * `npm run chaos`: Temporal's whole cap of 10,000 steer signals, as fast as 20 senders can send
 * them. `npm test`: 2,000 in paced waves of 500. Unpaced on a CPU-starved machine (the default
 * suite runs two files at once), one activation can hold thousands of signals; past the SDK's
 * fixed 5 s isolate timeout Node aborts the worker process ("async hook stack has become
 * corrupted"), so the full flood runs only in the chaos suite.
 */
const flood = bySize({ total: 2_000, wave: 500 }, { total: SIGNALS_PER_RUN_CAP, wave: SIGNALS_PER_RUN_CAP });

const book = new ScriptBook();
const gates = gateTool();
const shared = sharedWorker(() => [gates.tool], book.provider);

describe('a flood of signals', () => {
  it(`${flood.total} steer signals leave the run healthy: at most ${MAX_QUEUED_INSTRUCTIONS} join the conversation, and its history replays`, async () => {
    const task = `hostile: ${flood.total} steers`;
    // The run waits on a question (no activity timeout), so the flood can take as long as the machine needs.
    book.script(task, [
      { content: [useTool('ask_person', { question: 'Go on?' })] },
      { content: [useTool('finish', { result: 'done' })] },
    ]);
    const h = await createHarness(shared.env, {
      tools: [gates.tool],
      models: { scripted: book.provider },
    });
    const { result, history } = await h.worker.runUntil(async () => {
      const started = await h.agents.start(scriptedInput(task, { allowQuestions: true }));
      const handle = shared.env.client.workflow.getHandle(started.workflowId);
      await waitFor(
        'the question to open',
        async () => (await handle.query<{ openQuestion?: unknown }>('status')).openQuestion !== undefined,
      );
      const { runId } = await handle.describe();
      let sent = 0;
      for (let start = 0; start < flood.total; start += flood.wave) {
        let next = start;
        const sender = async () => {
          while (next < start + flood.wave) {
            const i = next++;
            await handle.signal('steer', { text: `instruction ${i}`, by: 'flood' });
            sent++;
          }
        };
        await Promise.all(Array.from({ length: 20 }, sender));
        expect(await handle.query('status')).toMatchObject({ steeringQueued: MAX_QUEUED_INSTRUCTIONS });
      }
      expect(sent).toBe(flood.total);
      // At the cap the server refuses the next signal: a flood can fill a run's history only so far.
      if (flood.total === SIGNALS_PER_RUN_CAP)
        await expect(handle.signal('steer', { text: 'one more', by: 'flood' })).rejects.toThrow();
      await handle.executeUpdate('answer', { args: [{ text: 'Go on.', by: 'bob' }] });
      const done = (await handle.result()) as AgentResult;
      return {
        result: done,
        history: await shared.env.client.workflow.getHandle(started.workflowId, runId).fetchHistory(),
      };
    });
    expect(result).toMatchObject({ success: true, finalAnswer: 'done', terminationReason: 'success' });
    expect(result.chain.steps.filter((s: ReasoningStep) => s.fromPerson?.kind === 'steer')).toHaveLength(
      MAX_QUEUED_INSTRUCTIONS,
    );
    const events = history.events!;
    expect(events.filter((e) => e.workflowExecutionSignaledEventAttributes)).toHaveLength(flood.total);
    // The only failed workflow tasks are the server's own: it fails a task to flush signals buffered meanwhile.
    const causes = new Set(
      events.flatMap((e) => (e.workflowTaskFailedEventAttributes ? [e.workflowTaskFailedEventAttributes.cause] : [])),
    );
    expect(
      [...causes].filter((c) => c !== WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_FORCE_CLOSE_COMMAND),
    ).toEqual([]);
    // A worker that restarts replays every signal and reaches the same commands.
    await Worker.runReplayHistory(suiteReplayOptions(), history, 'replay-signal-flood');
  }, 900_000);
});
