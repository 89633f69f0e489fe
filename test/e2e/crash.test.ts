import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeMessagesServer, toolUse, type FakeMessagesServer, type FakeRequestBody } from '../../src/testing';
import { scheduledActivities } from '../helpers/history';
import { cliEnv, PROJECT_ROOT, spawnCli, type CliProcess } from '../helpers/cli-process';
import { toolResultsIn, writeRecordingToolsModule } from '../helpers/recording-tools';
import { useTestEnv } from '../helpers/temporal-env';
import { AgentClient } from '../../src/client/agent-client';

const SIDE_EFFECTS = 3;

const env = useTestEnv();
let fake: FakeMessagesServer;
const workers: CliProcess[] = [];
afterAll(async () => {
  for (const w of workers) w.child.kill('SIGKILL');
  await fake?.close();
});

describe('a worker killed mid-run', () => {
  it('loses nothing: another worker finishes the run and no completed model call or tool side effect repeats', async () => {
    const dir = fs.mkdtempSync(path.join(PROJECT_ROOT, '.thoughtline/tmp/crash-'));
    const logFile = path.join(dir, 'side-effects.jsonl');
    let killed = false;
    // Stateless model: the next step follows from the tool results in the conversation. Its
    // second call hangs until the worker is killed, so the crash lands mid-model-call.
    const model = (body: FakeRequestBody) => {
      const done = toolResultsIn(body);
      if (done >= SIDE_EFFECTS) return toolUse('finish', { result: `recorded ${done}` });
      return toolUse(
        'record',
        { n: done + 1 },
        { delayMs: done === 1 && !killed ? 60_000 : 0, text: `Recording side effect ${done + 1}.` },
      );
    };
    fake = await startFakeMessagesServer({ script: Array.from({ length: 10 }, () => model) });
    const taskQueue = `crash-${randomUUID()}`;
    const workerEnv = cliEnv({
      THOUGHTLINE_TASK_QUEUE: taskQueue,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.baseUrl,
    });
    const tools = writeRecordingToolsModule(dir, logFile, 'crash-tools.js');

    const first = spawnCli(['worker', '--tools', tools], workerEnv);
    workers.push(first);
    await first.waitFor(/worker polling task queue/);
    const agents = new AgentClient({ client: env.client, taskQueue });
    const handle = await agents.start({
      task: 'Record three entries',
      // The killed worker's attempt is reaped by the model call's 5 s heartbeat timeout. A short
      // timeoutMs would also time out the next worker's attempt of the same call when a loaded
      // machine reports it late, after the fake had answered: that completed call is then made again
      // (Temporal runs an activity at least once; docs/concepts.md), which is not what this test is about.
      model: { provider: 'anthropic', model: 'claude-sonnet-4-6', timeoutMs: 60_000 },
    });

    // Wait until the second model call is in flight, then kill the worker without warning.
    for (let i = 0; i < 300 && !fake.requests.some((r) => toolResultsIn(r.body) === 1); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(fs.readFileSync(logFile, 'utf8').trim().split('\n')).toHaveLength(1);
    first.child.kill('SIGKILL');
    await first.exited;
    killed = true;

    const second = spawnCli(['worker', '--tools', tools], workerEnv);
    workers.push(second);
    const result = await handle.result();
    expect(result).toMatchObject({ success: true, finalAnswer: `recorded ${SIDE_EFFECTS}`, toolCalls: SIDE_EFFECTS });

    // Every side effect happened exactly once, with its own idempotency key; the first before the crash.
    const effects = fs
      .readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { n: number; key: string; pid: number });
    expect(effects.map((e) => e.n)).toEqual([1, 2, 3]);
    expect(new Set(effects.map((e) => e.key)).size).toBe(SIDE_EFFECTS);
    expect(effects[0]!.pid).toBe(first.child.pid);
    expect(effects.slice(1).every((e) => e.pid === second.child.pid)).toBe(true);

    // Each completed model call answered a distinct point of the conversation; only the killed one repeated.
    const completed = fake.requests
      .filter((r) => r.status === 200 && !r.clientAborted)
      .map((r) => toolResultsIn(r.body));
    expect(completed).toEqual([0, 1, 2, 3]);
    expect(fake.requests.filter((r) => r.clientAborted)).toHaveLength(1);

    // The budget ledger survived the kill: it holds exactly the completed calls (the fake's 10 in /
    // 5 out each), not the one that died with the worker, and nothing twice.
    expect(result.usage).toEqual({
      inputTokens: 10 * completed.length,
      outputTokens: 5 * completed.length,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });

    const activities = (await scheduledActivities(env.client, handle.workflowId)).map((a) => a.type);
    expect(activities.filter((t) => t === 'runTool')).toHaveLength(SIDE_EFFECTS);
    expect(activities.filter((t) => t === 'callModel')).toHaveLength(SIDE_EFFECTS + 1);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
