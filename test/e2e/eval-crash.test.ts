import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeMessagesServer, toolUse, type FakeMessagesServer, type FakeRequestBody } from '../../src/testing';
import { caseWorkflowId, EvaluationProgress, EvaluationResult } from '../../src/domain/evaluation';
import { scoringWorkflowId } from '../../src/workflows/eval/evaluation-case-workflow';
import { evaluationProgressQuery } from '../../src/workflows/eval/eval-messages';
import { scheduledActivities } from '../helpers/history';
import { cliEnv, PROJECT_ROOT, spawnCli, type CliProcess } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';

const EventType = temporal.api.enums.v1.EventType;
const CASES = Array.from({ length: 8 }, (_, i) => `case-${i + 1}`);
const CONCURRENCY = 2;
const VARIANT = 'claude-sonnet-4-6';

interface Effect {
  case: string;
  key: string;
  pid: number;
  /** The marker file existed when the call began: it waits until the marker goes, so it is in flight at the kill. */
  held: boolean;
}

/**
 * A tools module for the CLI workers: `record` appends one line per execution, like a real side
 * effect, and while the marker file exists a call that began under it waits (runTool heartbeats
 * meanwhile), so the test can hold every running unit in its tool call and kill the worker there.
 */
function writeToolsModule(dir: string, logFile: string, marker: string): string {
  const file = path.join(dir, 'eval-crash-tools.js');
  fs.writeFileSync(
    file,
    `const fs = require('node:fs');
const { z } = require('zod');
const { defineTool } = require(${JSON.stringify(path.join(PROJECT_ROOT, 'dist/tools/define-tool'))});
exports.tools = [defineTool({
  name: 'record', description: 'Records that a case ran', input: z.object({ case: z.string() }),
  execute: async ({ case: id }, ctx) => {
    const held = fs.existsSync(${JSON.stringify(marker)});
    fs.appendFileSync(${JSON.stringify(logFile)}, JSON.stringify({ case: id, key: ctx.idempotencyKey, pid: process.pid, held }) + '\\n');
    while (held && fs.existsSync(${JSON.stringify(marker)})) await new Promise((r) => setTimeout(r, 100));
    return { recorded: id };
  },
})];
`,
  );
  return file;
}

/** One line per case, each with what it expects: the record call for its own id, then the matching answer. */
function writeDataset(dir: string): string {
  const file = path.join(dir, 'crash-cases.jsonl');
  const line = (id: string) =>
    JSON.stringify({
      id,
      task: `Record ${id} in the log, then finish.`,
      expect: {
        answer: { match: 'exact', value: `recorded ${id}` },
        terminationReason: 'success',
        tools: { mode: 'exact', calls: [{ tool: 'record', arguments: { case: { equals: id } } }] },
      },
    });
  fs.writeFileSync(file, `${CASES.map(line).join('\n')}\n`);
  return file;
}

const toolResultsIn = (body: FakeRequestBody | undefined): number =>
  (body?.messages ?? [])
    .flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type: string }>) : []))
    .filter((b) => b.type === 'tool_result').length;

/** Stateless model, as the units interleave: the case comes from the task, the step from the tool results. */
function caseModel(body: FakeRequestBody) {
  const id = /\bcase-\d+\b/.exec(JSON.stringify(body.messages ?? []))?.[0] ?? 'unknown';
  return toolResultsIn(body) === 0
    ? toolUse('record', { case: id }, { text: `Recording ${id}.` })
    : toolUse('finish', { result: `recorded ${id}` });
}

const readEffects = (logFile: string): Effect[] =>
  fs.existsSync(logFile)
    ? fs
        .readFileSync(logFile, 'utf8')
        .trim()
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Effect)
    : [];

async function until<T>(what: string, read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const env = useTestEnv();
let fake: FakeMessagesServer;
const processes: CliProcess[] = [];
afterAll(async () => {
  for (const p of processes) p.child.kill('SIGKILL');
  await fake?.close();
});

describe('a worker killed mid-evaluation', () => {
  it('loses nothing: a new worker completes the evaluation, every unit starts and reports once, no completed side effect repeats', async () => {
    fs.mkdirSync(path.join(PROJECT_ROOT, '.thoughtline/tmp'), { recursive: true });
    const dir = fs.mkdtempSync(path.join(PROJECT_ROOT, '.thoughtline/tmp/eval-crash-'));
    const logFile = path.join(dir, 'side-effects.jsonl');
    const marker = path.join(dir, 'hold');
    const out = path.join(dir, 'out');
    fake = await startFakeMessagesServer({ script: Array.from({ length: 4 * CASES.length }, () => caseModel) });
    const taskQueue = `eval-crash-${randomUUID()}`;
    const cliVars = cliEnv({
      THOUGHTLINE_TASK_QUEUE: taskQueue,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.baseUrl,
    });
    const tools = writeToolsModule(dir, logFile, marker);
    const dataset = writeDataset(dir);

    // A standing worker in a process of its own, and `eval --no-worker` following the evaluation from another.
    const first = spawnCli(['worker', '--tools', tools], cliVars);
    processes.push(first);
    await first.waitFor(/worker polling task queue/, 90_000);
    const evalCli = spawnCli(
      ['eval', dataset, '--no-worker', '--model', VARIANT, '--concurrency', String(CONCURRENCY), '--out', out],
      cliVars,
    );
    processes.push(evalCli);
    await evalCli.waitFor(/started evaluation \S+ on task queue/);
    const evaluationId = /started evaluation (\S+) on task queue/.exec(evalCli.output())![1]!;
    const evaluation = env.client.workflow.getHandle(evaluationId);

    // Once a few units are done, hold every tool call that begins from now on; kill the worker
    // when both running units are held in theirs, so exactly those two activities are in flight.
    const progress = async () => EvaluationProgress.parse(await evaluation.query(evaluationProgressQuery));
    await until('3 units done', progress, (p) => p.done >= 3);
    fs.writeFileSync(marker, '');
    await until(
      `${CONCURRENCY} held tool calls`,
      () => readEffects(logFile),
      (e) => e.filter((x) => x.held).length === CONCURRENCY,
    );
    const atKill = await progress();
    expect(atKill).toMatchObject({ total: CASES.length, running: CONCURRENCY, skipped: 0 });
    expect(atKill.done).toBeGreaterThanOrEqual(3);
    expect(atKill.done).toBeLessThanOrEqual(CASES.length - CONCURRENCY);
    first.child.kill('SIGKILL');
    await first.exited;
    fs.rmSync(marker);

    const second = spawnCli(['worker', '--tools', tools], cliVars);
    processes.push(second);
    expect(await evalCli.exited, evalCli.output()).toBe(0);
    expect(evalCli.output()).toContain(`Evaluation ${evaluationId}: completed`);

    // The evaluation completed with one scored, passing result per unit, and result.json is its result.
    const result = EvaluationResult.parse(await evaluation.result());
    expect(result.status).toBe('completed');
    expect(result.results.map((r) => [r.caseId, r.variant, r.repeat, r.status, r.passed])).toEqual(
      CASES.map((id) => [id, VARIANT, 0, 'scored', true]),
    );
    expect(EvaluationResult.parse(JSON.parse(fs.readFileSync(path.join(out, 'result.json'), 'utf8')))).toEqual(result);

    // The evaluation's history started each unit's case workflow exactly once, and each of those its agent run once.
    const runIds = CASES.map((id) => caseWorkflowId(evaluationId, { id }, VARIANT, 0));
    expect(result.results.map((r) => r.workflowId)).toEqual(runIds);
    expect(await childStarts(evaluationId)).toEqual(runIds.map(scoringWorkflowId));
    for (const runId of runIds) {
      expect(await childStarts(scoringWorkflowId(runId))).toEqual([runId]);
      const run = await env.client.workflow.getHandle(runId).describe();
      expect(run.status.name).toBe('COMPLETED');
      expect((await scheduledActivities(env.client, runId)).filter((a) => a.type === 'runTool')).toHaveLength(1);
    }
    // Visibility lists each agent run once: no second run under any id.
    const listed = await until(
      'the agent runs in visibility',
      async () => {
        const ids: string[] = [];
        for await (const w of env.client.workflow.list({
          query: `WorkflowType = 'agentWorkflow' AND TaskQueue = '${taskQueue}'`,
        }))
          ids.push(w.workflowId);
        return ids;
      },
      (ids) => ids.length >= runIds.length,
    );
    expect([...listed].sort()).toEqual([...runIds].sort());

    // Side effects: every case's record ran once, but the two held at the kill, which ran once on
    // each worker with the same idempotency key (the at-least-once retry of a lost attempt).
    const effects = readEffects(logFile);
    const held = effects.filter((e) => e.held);
    expect(held.every((e) => e.pid === first.child.pid)).toBe(true);
    for (const id of CASES) {
      const ran = effects.filter((e) => e.case === id);
      if (held.some((e) => e.case === id)) expect(ran.map((e) => e.pid)).toEqual([first.child.pid, second.child.pid]);
      else expect(ran).toHaveLength(1);
      expect(new Set(ran.map((e) => e.key)).size).toBe(1);
    }
    expect(effects).toHaveLength(CASES.length + CONCURRENCY);
    expect(new Set(effects.map((e) => e.key)).size).toBe(CASES.length);

    // No model call repeated: two per case, each answered, none cut off by the kill.
    expect(fake.errors).toEqual([]);
    expect(fake.requests.filter((r) => r.clientAborted)).toHaveLength(0);
    expect(fake.requests).toHaveLength(2 * CASES.length);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 180_000);
});

/** The workflow ids of the children a workflow's history started, in order. */
async function childStarts(workflowId: string): Promise<string[]> {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? [])
    .filter((e) => e.eventType === EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED)
    .map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ?? '?');
}
