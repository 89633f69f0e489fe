import { temporal } from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, useTool } from '../../src/activities/models/scripted-model';
import { billableActions } from '../../src/client/runs/billable-actions';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { createHarness } from '../helpers/temporal-env';
import { createTimeSkippingEnv } from '../helpers/time-skipping-env';
import { startTaskServer, type TaskServer } from './task-server';

const EventType = temporal.api.enums.v1.EventType;
const HOUR_MS = 3_600_000;
/**
 * What an hour parked may cost: 9 doubling waits reach the 5-minute cap by 511 s, then one each
 * 5 minutes, 20 polls in all; a timer and a poll each, so 40 actions, whatever the server's 500 ms.
 */
const MAX_PARKED_HOUR_ACTIONS = 42;

let env: TestWorkflowEnvironment;
let server: TaskServer;
beforeAll(async () => {
  env = await createTimeSkippingEnv();
  server = await startTaskServer();
});
afterAll(async () => {
  await server?.stop();
  await env?.teardown();
});

describe('a run parked on an MCP task, on the time-skipping test server', () => {
  it('waits an hour of skipped time on its timers, holding no activity, for a bounded number of actions', async () => {
    const model = createScriptedModel([
      { content: [useTool('reports__slow_report', { topic: 'the quarter', ms: -1 }, 'toolu_q')] },
      { content: [useTool('finish', { result: 'Quarter reported.' })] },
    ]);
    const h = await createHarness(
      { client: env.client, nativeConnection: env.nativeConnection, namespace: env.namespace ?? 'default' },
      { tools: [], models: { scripted: model }, mcp: { mcpServers: { reports: { url: server.url } } } },
    );
    const wallStart = Date.now();
    const { result, history } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ model: SCRIPTED_MODEL, task: 'Report', tools: ['reports__slow_report'] });
      await env.sleep(HOUR_MS);
      const described = await env.client.workflow.getHandle(handle.workflowId).describe();
      // An hour in, the run waits on a timer: nothing open on a worker.
      expect(described.raw.pendingActivities ?? []).toHaveLength(0);
      await server.release();
      const ended = await handle.result();
      return { result: ended, history: await handle.fetchHistory() };
    });
    model.verify();
    expect(result.terminationReason).toBe('success');
    const events = history.events ?? [];
    const polls = events.filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'pollMcpTask',
    ).length;
    const timers = events.filter((e) => e.eventType === EventType.EVENT_TYPE_TIMER_STARTED).length;
    const actions = billableActions(history);
    console.log(
      `parked an hour: ${polls} polls, ${timers} timers; the run ${actions.total} actions in all; ${Date.now() - wallStart} ms of real time`,
    );
    expect(polls).toBeGreaterThanOrEqual(19);
    expect(polls + timers).toBeLessThanOrEqual(MAX_PARKED_HOUR_ACTIONS);
    // The rest of the run costs what a one-tool run costs (start, describeTools, two model calls, the tool call, upserts).
    expect(actions.total - polls - timers).toBeLessThanOrEqual(10);
  }, 180_000);

  it('cancels a task that outlives taskTimeoutMs and gives the model an error saying how long it waited', async () => {
    const model = createScriptedModel([
      { content: [useTool('reports__slow_report', { topic: 'the year', ms: -1 }, 'toolu_y')] },
      { content: [useTool('finish', { result: 'No report.' })] },
    ]);
    const h = await createHarness(
      { client: env.client, nativeConnection: env.nativeConnection, namespace: env.namespace ?? 'default' },
      {
        tools: [],
        models: { scripted: model },
        mcp: { mcpServers: { reports: { url: server.url, taskTimeoutMs: 600_000 } } },
      },
    );
    const result = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ model: SCRIPTED_MODEL, task: 'Year', tools: ['reports__slow_report'] });
      return handle.result();
    });
    model.verify();
    const step = result.chain.steps.find((s) => s.type === 'tool_result' && s.toolResult.correlationId === 'toolu_y');
    expect(step?.type === 'tool_result' && step.toolResult).toMatchObject({
      success: false,
      error: expect.stringMatching(/did not finish within 10 minutes; it was cancelled/),
    });
    const stats = await server.stats();
    expect(stats.cancelled.length).toBeGreaterThanOrEqual(1);
  }, 180_000);
});
