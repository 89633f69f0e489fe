import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/dev-server/probes/free-port';
import type { AgentResult, ReasoningStep } from '../../src/domain';
import { startFakeMessagesServer, toolUse, type FakeMessagesServer, type FakeRequestBody } from '../../src/testing';
import { toolResultOf } from '../helpers/chain-helpers';
import { cliEnv, runCli, spawnCli } from '../helpers/cli-process';
import { scheduledActivities } from '../helpers/history';
import { useTestEnv } from '../helpers/temporal-env';
import { startTaskServer, type TaskServer } from '../mcp/task-server';
import { eventually } from '../server/server-harness';

const env = useTestEnv();
const EventType = temporal.api.enums.v1.EventType;
const REPORT = 'Report on sales: all good.';

/** The text of the tool results the model was sent: the run's conversation so far. */
const toolResultsIn = (body: FakeRequestBody): string[] =>
  body.messages
    .flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type: string; content?: unknown }>) : []))
    .filter((b) => b.type === 'tool_result')
    .map((b) => JSON.stringify(b.content));

/**
 * A stateless model: without a tool result it calls the task tool (`ms: -1`, so the test says
 * when the task ends); with one it finishes, quoting what it read.
 */
const model = (callId: string) => (body: FakeRequestBody) => {
  const [read] = toolResultsIn(body);
  if (read !== undefined) return toolUse('finish', { result: `The report: ${read}` }, { text: 'I have the report.' });
  return toolUse('reports__slow_report', { topic: 'sales', ms: -1 }, { id: callId, text: 'Asking for the report.' });
};

/** How the run stands on Temporal: its polls of the task, its timers, and activities open now. */
async function parking(workflowId: string) {
  const handle = env.client.workflow.getHandle(workflowId);
  const history = await handle.fetchHistory();
  const types = (await scheduledActivities(env.client, workflowId)).map((a) => a.type);
  return {
    runTools: types.filter((t) => t === 'runTool').length,
    polls: types.filter((t) => t === 'pollMcpTask').length,
    timers: (history.events ?? []).filter((e) => e.eventType === EventType.EVENT_TYPE_TIMER_STARTED).length,
    open: (await handle.describe()).raw.pendingActivities?.length ?? 0,
  };
}

/** Waits until the run has polled the task on timers and holds no activity between polls; returns that state. */
async function parked(workflowId: string) {
  return eventually(
    'the run parked on the task',
    async () => {
      const now = await parking(workflowId).catch(() => undefined);
      return now && now.polls >= 1 && now.open === 0 ? now : undefined;
    },
    60_000,
  );
}

let server: TaskServer;
let fake: FakeMessagesServer;
let dir: string;
let mcpFile: string;
beforeAll(async () => {
  server = await startTaskServer();
  fake = await startFakeMessagesServer();
  dir = mkdtempSync(path.join(tmpdir(), 'tl-mcp-doors-'));
  mcpFile = path.join(dir, 'mcp.json');
  writeFileSync(mcpFile, JSON.stringify({ mcpServers: { reports: { url: server.url } } }));
}, 30_000);
afterAll(async () => {
  await server?.stop();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const modelEnv = () => ({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.baseUrl });

/** A run that calls an MCP tool answered with a task, through the CLI and through the HTTP API. */
describe('an MCP task through the CLI and the API', () => {
  it('thoughtline run --mcp parks on the task (timers and polls, nothing open) and prints its result', async () => {
    fake.append([model('toolu_cli'), model('toolu_cli')]);
    const workflowId = `mcp-doors-cli-${randomUUID()}`;
    const running = runCli(
      ['run', 'Report on sales', '--mcp', mcpFile, '--workflow-id', workflowId, '--json', '--no-dashboard'],
      cliEnv({ THOUGHTLINE_TASK_QUEUE: `mcp-doors-${randomUUID()}`, ...modelEnv() }),
    );
    const state = await Promise.race([parked(workflowId), running]);
    if ('code' in state) throw new Error(`the CLI ended before the run parked (${state.code}): ${state.stderr}`);
    expect(state).toMatchObject({ runTools: 1, open: 0 });
    expect(state.timers).toBeGreaterThanOrEqual(state.polls);
    await server.release();
    const { code, stdout, stderr } = await running;
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout) as AgentResult;
    expect(result.terminationReason).toBe('success');
    expect(toolResultOf(result.chain.steps, 'toolu_cli')).toMatchObject({ success: true, result: REPORT });
    expect(result.finalAnswer).toContain(REPORT);
    const after = await parking(workflowId);
    expect(after.runTools).toBe(1);
    expect(after.timers).toBeGreaterThanOrEqual(after.polls);
    fake.verify();
  }, 120_000);

  it('serve --with-worker --mcp: POST /v1/runs, GET shows it running while parked, the chain has the result', async () => {
    fake.append([model('toolu_api'), model('toolu_api')]);
    const tokens = path.join(dir, 'tokens.json');
    const minted = await runCli(['token', '--id', 'dana', '--roles', 'developer', '--file', tokens], cliEnv({}));
    expect(minted.code, minted.stderr).toBe(0);
    const headers = { authorization: `Bearer ${minted.stdout.trim()}`, 'content-type': 'application/json' };
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const serve = spawnCli(
      ['serve', '--port', String(port), '--tokens', tokens, '--with-worker', '--mcp', mcpFile],
      cliEnv({ THOUGHTLINE_TASK_QUEUE: `mcp-doors-${randomUUID()}`, ...modelEnv() }),
    );
    try {
      await serve.waitFor(/serving http:\/\/127\.0\.0\.1:\d+ .*with a worker on task queue/);
      const started = await fetch(`${base}/v1/runs`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ task: 'Report on sales' }),
      });
      expect(started.status).toBe(201);
      const { runId } = (await started.json()) as { runId: string };
      const state = await parked(runId);
      expect(state).toMatchObject({ runTools: 1, open: 0 });
      const whileParked = (await (await fetch(`${base}/v1/runs/${runId}`, { headers })).json()) as { status: string };
      expect(whileParked.status).toBe('running');
      const chainWhileParked = (await (await fetch(`${base}/v1/runs/${runId}/chain`, { headers })).json()) as {
        chain: { steps: ReasoningStep[] };
      };
      expect(toolResultOf(chainWhileParked.chain.steps, 'toolu_api')).toBeUndefined();
      await server.release();
      await eventually(
        'the run to complete',
        async () => {
          const run = (await (await fetch(`${base}/v1/runs/${runId}`, { headers })).json()) as { status: string };
          return run.status === 'running' ? undefined : run;
        },
        60_000,
      ).then((run) => expect(run.status).toBe('completed'));
      const chain = (await (await fetch(`${base}/v1/runs/${runId}/chain`, { headers })).json()) as {
        chain: { steps: ReasoningStep[] };
      };
      expect(toolResultOf(chain.chain.steps, 'toolu_api')).toMatchObject({ success: true, result: REPORT });
      const after = await parking(runId);
      expect(after.runTools).toBe(1);
      expect(after.timers).toBeGreaterThanOrEqual(after.polls);
    } finally {
      serve.child.kill('SIGTERM');
    }
    expect(await serve.exited).toBe(0);
    fake.verify();
  }, 120_000);
});
