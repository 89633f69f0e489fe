import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import { billableActions } from '../../../src/client/runs/billable-actions';
import { DEMO_TASK } from '../../../src/cli/commands/run-and-watch/demo';
import { weatherDemoTurn } from '../../../src/demo/offline-weather-model';
import { weatherTool } from '../../../src/demo/weather-tool';
import { createOfflineModel } from '../../../src/offline/offline-model';
import { defineTool } from '../../../src/tools/define-tool';
import { scriptedInput } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();
const FIXTURES = path.resolve(__dirname, '../../replay/fixtures');
const fixture = (name: string) =>
  historyFromJSON(JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')));

describe('billable Temporal Cloud actions, counted from real histories', () => {
  it('the offline demo run (3 model calls, 2 tool calls) costs 7: its start, 5 activities and the upsert of its ending', async () => {
    const h = await createHarness(env, {
      tools: [weatherTool],
      models: { anthropic: createOfflineModel([weatherDemoTurn]) },
    });
    const history = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ task: DEMO_TASK });
      expect(await handle.result()).toMatchObject({ success: true, toolCalls: 2 });
      return handle.fetchHistory();
    });
    // 3 model calls (the first describes the tools: no lookup before it), 2 weather lookups; the status at
    // the end (the start set `running` and the model, which its first reply left as they were).
    expect(billableActions(history)).toEqual({
      starts: 1,
      activities: 5,
      localActivityTasks: 0,
      upserts: 1,
      timers: 0,
      childStarts: 0,
      signals: 0,
      updates: 0,
      total: 7,
    });
  });

  it('a 10-iteration run with one tool call an iteration costs at most 2 an iteration + 2', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks a number up',
      input: z.object({ n: z.number() }),
      execute: ({ n }) => `value ${n}`,
    });
    const turns: ScriptedTurn[] = [
      ...Array.from({ length: 9 }, (_, n) => ({ content: [useTool('lookup', { n })] })),
      { content: [useTool('finish', { result: 'done' })] },
    ];
    const model = createScriptedModel(turns);
    const h = await createHarness(env, { tools: [lookup], models: { scripted: model } });
    const { result, history } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start(scriptedInput('Look ten numbers up'));
      return { result: await handle.result(), history: await handle.fetchHistory() };
    });
    model.verify();
    expect(result).toMatchObject({ iterations: 10, toolCalls: 9 });
    const actions = billableActions(history);
    // 10 model calls, 9 lookups (finish runs no activity): the bare loop's 19 activities, and the status at the end.
    expect(actions).toMatchObject({ starts: 1, activities: 19, upserts: 1, timers: 0, total: 21 });
    expect(actions.total).toBeLessThanOrEqual(2 * result.iterations + 2);
  });

  it('counts every kind from recorded histories: retries, local activities, children, signals and updates', () => {
    // A local tool runs as a local activity: one action for the workflow task that ran it.
    expect(billableActions(fixture('local-tool'))).toMatchObject({ localActivityTasks: 1 });
    // The parent starts one child; the child's start is counted there, once.
    expect(billableActions(fixture('parallel-and-sub-agent'))).toMatchObject({ childStarts: 1, starts: 1 });
    // A steer is a signal, an answer an update.
    expect(billableActions(fixture('steer-and-answer'))).toMatchObject({ signals: 1, updates: 1 });
    // A tool failing every attempt: each attempt is an action, not only the one scheduled.
    const failing = fixture('failed-tool-then-cancelled-approval');
    const scheduled = (failing.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes).length;
    const attempts = (failing.events ?? []).reduce(
      (sum, e) => sum + (e.activityTaskStartedEventAttributes?.attempt ?? 0),
      0,
    );
    expect(billableActions(failing).activities).toBe(attempts);
    expect(attempts).toBeGreaterThan(scheduled);
    for (const name of fs.readdirSync(FIXTURES).map((f) => path.basename(f, '.json'))) {
      const a = billableActions(fixture(name));
      const { total, ...kinds } = a;
      expect(total, name).toBe(Object.values(kinds).reduce((s, n) => s + n, 0));
    }
  });
});
