import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../src/activities/models/scripted-model';
import type { ReasoningStep } from '../../src/domain';
import type { RunEvent } from '../../src/domain/run/run-event';
import { createMemoryBus } from '../../src/events/memory-bus';
import { createAgentWorker } from '../../src/worker';
import { cliEnv, spawnCli } from '../helpers/cli-process';
import { scheduledActivities } from '../helpers/history';
import { waitFor } from '../helpers/people-helpers';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { createHarness, useTestEnv } from '../helpers/temporal-env';
import { EVERYTHING_SERVER, sampleFolder, startEverythingHttp, stdioConfig, type HttpServer } from './mcp-test-servers';

const env = useTestEnv();

const results = (steps: readonly ReasoningStep[]) =>
  steps.flatMap((s) => (s.type === 'tool_result' ? [s.toolResult] : []));

describe('a run with MCP servers as tools', () => {
  const dir = sampleFolder();
  let http: HttpServer;
  beforeAll(async () => {
    http = await startEverythingHttp();
  }, 30_000);
  afterAll(() => http?.stop());

  it('calls tools of the filesystem server (stdio) and the everything server (stdio and HTTP), each one activity named for its server and tool', async () => {
    const config = stdioConfig(dir);
    config.mcpServers['web'] = { url: http.url };
    const model = createScriptedModel([
      { content: [say('Reading the notes.'), useTool('fs__read_text_file', { path: `${dir}/notes.txt` }, 'toolu_fs')] },
      {
        content: [
          useTool('everything__get-structured-content', { location: 'Chicago' }, 'toolu_weather'),
          useTool('web__get-sum', { a: 20, b: 22 }, 'toolu_sum'),
        ],
      },
      { content: [useTool('finish', { result: 'Launch on Tuesday; 42.' })] },
    ]);
    const h = await createHarness(env, { tools: [], models: { scripted: model }, mcp: config });
    const { result, workflowId } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        model: SCRIPTED_MODEL,
        task: 'When is the launch?',
        tools: ['fs__*', 'everything__get-structured-content', 'web__get-sum'],
      });
      return { result: await handle.result(), workflowId: handle.workflowId };
    });
    model.verify();
    expect(result.terminationReason).toBe('success');
    const byCall = new Map(results(result.chain.steps).map((r) => [r.correlationId, r]));
    expect(byCall.get('toolu_fs')).toMatchObject({
      success: true,
      result: expect.objectContaining({ text: 'The launch is on Tuesday.\n' }),
    });
    expect(byCall.get('toolu_weather')).toMatchObject({
      success: true,
      result: expect.objectContaining({
        structuredContent: expect.objectContaining({ conditions: expect.any(String) }),
      }),
    });
    expect(byCall.get('toolu_sum')).toMatchObject({ success: true, result: 'The sum of 20 and 22 is 42.' });
    const scheduled = await scheduledActivities(env.client, workflowId);
    expect(scheduled.map((a) => a.summary)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^fs__read_text_file /), expect.stringMatching(/^web__get-sum /)]),
    );
  }, 120_000);

  it('finishes a run whose MCP server is killed mid-call: the call is retried on a new process', async () => {
    const marker = `tl-kill-${randomUUID()}`;
    const model = createScriptedModel([
      { content: [useTool('everything__trigger-long-running-operation', { duration: 4, steps: 4 }, 'toolu_long')] },
      { content: [useTool('finish', { result: 'done' })] },
    ]);
    const h = await createHarness(env, {
      tools: [],
      models: { scripted: model },
      mcp: { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio', marker] } } },
    });
    const result = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        model: SCRIPTED_MODEL,
        task: 'Run the long operation',
        tools: ['everything__trigger-long-running-operation'],
      });
      const pid = await waitFor(
        'the server process',
        () => {
          try {
            return Number(execFileSync('pgrep', ['-f', marker]).toString().trim().split('\n')[0]) || undefined;
          } catch {
            return undefined;
          }
        },
        30_000,
      );
      // Let the call start, then kill the server under it.
      await waitFor(
        'the long call to start',
        async () => (await scheduledActivities(env.client, handle.workflowId)).some((a) => a.type === 'runTool'),
        30_000,
      );
      await new Promise((r) => setTimeout(r, 1_500));
      process.kill(pid, 'SIGKILL');
      return handle.result();
    });
    model.verify();
    expect(result.terminationReason).toBe('success');
    const long = results(result.chain.steps).find((r) => r.correlationId === 'toolu_long');
    expect(long).toMatchObject({ success: true, attempts: 2 });
  }, 120_000);

  it("streams a server's progress notices as the call's tool_progress events (line and fraction), never into the chain", async () => {
    const bus = createMemoryBus();
    const progress: RunEvent[] = [];
    bus.subscribeAll((event) => event.type === 'tool_progress' && progress.push(event));
    const model = createScriptedModel([
      { content: [useTool('everything__trigger-long-running-operation', { duration: 2, steps: 2 }, 'toolu_steps')] },
      { content: [useTool('finish', { result: 'done' })] },
    ]);
    const h = await createHarness(env, {
      tools: [],
      models: { scripted: model },
      events: bus,
      mcp: { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } } },
    });
    const result = await h.worker.runUntil(async () =>
      (
        await h.agents.start({
          model: SCRIPTED_MODEL,
          task: 'Run the long operation in two steps',
          tools: ['everything__trigger-long-running-operation'],
        })
      ).result(),
    );
    model.verify();
    expect(result.terminationReason).toBe('success');
    // The server sends "1 of 2", then "2 of 2" (it gives no line of its own). Progress is a courtesy,
    // throttled with the latest winning, so a loaded machine may show one of them: each in order.
    const seen = progress.map((e) => ('fraction' in e ? [e.toolName, e.message, e.fraction] : []));
    expect(seen.length).toBeGreaterThanOrEqual(1);
    const notices = [
      ['everything__trigger-long-running-operation', '1 of 2', 0.5],
      ['everything__trigger-long-running-operation', '2 of 2', 1],
    ];
    expect(notices.filter((n) => seen.some((s) => JSON.stringify(s) === JSON.stringify(n)))).toEqual(seen);
    expect(JSON.stringify(result.chain.steps)).not.toContain('1 of 2');
  }, 120_000);

  it('turns a server’s request for input into a question a person answers with `thoughtline answer`, after a worker restart', async () => {
    const model = createScriptedModel([
      { content: [useTool('everything__trigger-elicitation-request', {}, 'toolu_ask')] },
      { content: [useTool('finish', { result: 'registered' })] },
    ]);
    const mcp = stdioConfig(dir);
    const first = await createHarness(env, { tools: [], models: { scripted: model }, mcp });
    const workflowId = `mcp-elicit-${randomUUID()}`;
    await first.worker.runUntil(async () => {
      await first.agents.start(
        { model: SCRIPTED_MODEL, task: 'Register me', tools: ['everything__trigger-elicitation-request'] },
        { workflowId },
      );
      await waitFor('the open question', async () => (await first.agents.status(workflowId)).openQuestion, 60_000);
    });
    // The first worker is gone; the question waits in the run's history, with no activity open.
    const second = await createAgentWorker({
      connection: env.nativeConnection,
      namespace: inject('temporalNamespace'),
      taskQueue: first.taskQueue,
      tools: [],
      models: { scripted: model },
      mcp,
      workflowBundle: { codePath: inject('workflowBundlePath') },
      workerOptions: { maxCachedWorkflows: 0 },
    });
    const result = await second.runUntil(async () => {
      const status = await first.agents.status(workflowId);
      expect(status.openQuestion?.question).toContain(
        'The MCP server "everything" asks, during everything__trigger-elicitation-request',
      );
      const answer = spawnCli(['answer', workflowId, '{"name":"Ana Lima","check":true}', '--as', 'ana'], cliEnv({}));
      expect(await answer.exited).toBe(0);
      return first.agents.result(workflowId);
    });
    model.verify();
    expect(result.terminationReason).toBe('success');
    const asked = results(result.chain.steps).find((r) => r.correlationId === 'toolu_ask');
    expect(asked).toMatchObject({ success: true });
    expect(JSON.stringify(asked?.result)).toContain('Ana Lima');
    expect(
      result.chain.steps.some(
        (s) =>
          s.type === 'thinking' && s.thought.includes('ana answered everything') && s.fromPerson?.kind === 'answer',
      ),
    ).toBe(true);
  }, 180_000);
});
