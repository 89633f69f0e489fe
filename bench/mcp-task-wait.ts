import { spawn } from 'node:child_process';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { billableActions } from '../src/client/runs/billable-actions';
import { AgentClient } from '../src/client/agent-client';
import { findOrInstallTestServer } from '../src/dev-server/install/find-or-install-test-server';
import { freePort } from '../src/dev-server/probes/free-port';
import { findProjectRoot } from '../src/dev-server/project-paths';
import { SEARCH_ATTRIBUTES } from '../src/domain/run/search-attributes';
import { createScriptedModel, useTool } from '../src/activities/models/scripted-model';
import { MAX_MCP_POLL_INTERVAL_MS } from '../src/workflows/tools/mcp-task-wait';
import { createAgentWorker } from '../src/worker';
import type { BenchContext } from './lib/bench-context';
import { BENCH_MODEL } from './lib/bench-worker';
import { errorText, measurement, type FigureBody } from './lib/figure';

const EventType = temporal.api.enums.v1.EventType;
const IndexedValueType = temporal.api.enums.v1.IndexedValueType;
const HOUR_MS = 3_600_000;

/**
 * Figure 15: one run parked for an hour on a task of a real MCP server (test/mcp/servers/task-server.mjs
 * over Streamable HTTP), on Temporal's time-skipping test server, so the hour passes in seconds.
 * Counted from the run's history: its polls (pollMcpTask activities), its timers, and every
 * billable action of the run (billableActions). Target: at most 42 for the wait (a timer and a
 * poll each, 20 of each for an hour with the 5-minute cap).
 */
export async function measureMcpTaskWait(ctx: BenchContext): Promise<FigureBody> {
  const errors: string[] = [];
  const port = await freePort();
  const server = spawn(process.execPath, [path.join(findProjectRoot(), 'test/mcp/servers/task-server.mjs')], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
    server.once('exit', (code) => reject(new Error(`the task server exited (${code})`)));
  });
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: await findOrInstallTestServer({ log: ctx.log }) } },
  });
  try {
    await env.connection.operatorService.addSearchAttributes({
      namespace: env.namespace ?? 'default',
      searchAttributes: Object.fromEntries(
        SEARCH_ATTRIBUTES.map((a) => [a.name, IndexedValueType[`INDEXED_VALUE_TYPE_${a.key.type}`]]),
      ),
    });
    const model = createScriptedModel([
      { content: [useTool('reports__slow_report', { topic: 'the quarter', ms: -1 }, 'toolu_q')] },
      { content: [useTool('finish', { result: 'Quarter reported.' })] },
    ]);
    const taskQueue = 'bench-mcp-task';
    const worker = await createAgentWorker({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      tools: [],
      models: { scripted: model },
      mcp: { mcpServers: { reports: { url: `http://127.0.0.1:${port}/mcp` } } },
      workflowBundle: { codePath: ctx.bundlePath },
    });
    const started = Date.now();
    const { history, pending } = await worker.runUntil(async () => {
      const agents = new AgentClient({ client: env.client, taskQueue });
      const handle = await agents.start({
        model: BENCH_MODEL,
        task: 'Report',
        tools: ['reports__slow_report'],
        requireThought: false,
      });
      await env.sleep(HOUR_MS);
      const described = await env.client.workflow.getHandle(handle.workflowId).describe();
      await fetch(`http://127.0.0.1:${port}/release`, { method: 'POST' });
      const result = await handle.result();
      if (result.terminationReason !== 'success') throw new Error(`the run ended ${result.terminationReason}`);
      const report = result.chain.steps.find(
        (s) => s.type === 'tool_result' && s.toolResult.correlationId === 'toolu_q',
      );
      if (report?.type !== 'tool_result' || !report.toolResult.success)
        throw new Error(`the parked call did not succeed: ${JSON.stringify(report).slice(0, 500)}`);
      return { history: await handle.fetchHistory(), pending: described.raw.pendingActivities?.length ?? 0 };
    });
    const events = history.events ?? [];
    const polls = events.filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'pollMcpTask',
    ).length;
    const timers = events.filter((e) => e.eventType === EventType.EVENT_TYPE_TIMER_STARTED).length;
    const actions = billableActions(history);
    return {
      measurements: [
        measurement('an hour parked: billable actions of the wait (timers and polls)', polls + timers, 'actions', {
          target: { op: '<=', value: 42 },
        }),
        measurement('an hour parked: tasks/get polls', polls, 'polls'),
        measurement('an hour parked: activities open an hour in', pending, 'activities', {
          target: { op: '<=', value: 0 },
        }),
        measurement('the whole run (start, tools, two model calls, the call, the wait)', actions.total, 'actions'),
        measurement('real time of the hour', (Date.now() - started) / 1_000, 's'),
      ],
      errors,
      details: {
        actions,
        backoff: `1 s doubling to ${MAX_MCP_POLL_INTERVAL_MS / 60_000} min, never shorter than the server's pollInterval (500 ms here)`,
      },
    };
  } catch (err) {
    errors.push(errorText(err));
    return { measurements: [], errors, details: {} };
  } finally {
    await env.teardown();
    server.kill('SIGTERM');
  }
}
