import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createEvalReplay } from '../../../src/eval/replay';
import { FailureType, type ModelMessage, type ModelRequest } from '../../../src/domain';
import { defineTool, type ToolDefinition } from '../../../src/tools/define-tool';
import { ToolError } from '../../../src/tools/tool-error';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eval-replay-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const reply = (text: string, costUsd: number) => ({
  workflowId: 'recorded',
  reply: {
    content: [{ type: 'text', text }],
    stopReason: 'end_turn',
    model: 'claude-sonnet-4-6',
    usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd,
    durationMs: 1,
  },
});
const execution = (args: unknown, outcome: { result: unknown } | { error: string; final?: boolean }) => ({
  kind: 'tool',
  workflowId: 'recorded',
  tool: 'rate',
  arguments: args,
  ...outcome,
});
const recording = path.join(dir, 'case-a.jsonl');
fs.writeFileSync(
  recording,
  [
    reply('first', 0.01),
    execution({ pair: 'EURJPY' }, { error: 'timed out' }),
    execution({ pair: 'EURJPY' }, { result: { rate: 161.5 } }),
    execution({ pair: 'EURJPY' }, { result: { rate: 162 } }),
    reply('second', 0.02),
  ]
    .map((line) => JSON.stringify(line))
    .join('\n'),
);

let realCalls = 0;
const rate = defineTool({
  name: 'rate',
  description: 'An exchange rate',
  input: z.object({ pair: z.string() }),
  effects: 'none',
  execute: ({ pair }) => ({ rate: 1, pair, real: ++realCalls }),
});
const echo = defineTool({
  name: 'echo',
  description: 'Says it back',
  input: z.object({ text: z.string() }),
  effects: 'none',
  execute: ({ text }) => ({ text }),
});

const replay = createEvalReplay({ evaluationId: 'eval-1', cases: [{ id: 'case-a', recordingFile: recording }] });
const [replayedRate, replayedEcho] = replay.wrapTools([rate, echo]) as [ToolDefinition, ToolDefinition];

/** Runs a wrapped tool as the tool activity would, for the run `workflowId`, at `attempt`, for the call `key`. */
function runTool(tool: ToolDefinition, args: unknown, workflowId: string, attempt = 1, key = 'call-1') {
  const env = new MockActivityEnvironment({ attempt, workflowExecution: { workflowId, runId: 'r' } } as never);
  return env.run(async () =>
    tool.execute(args, {
      idempotencyKey: `${workflowId}:${key}`,
      signal: new AbortController().signal,
      heartbeat() {},
      narrowVisibility() {},
      progress() {},
    }),
  );
}

const request = (assistantMessages: number, model = 'case-a'): ModelRequest => {
  const messages: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'task' }] }];
  for (let i = 0; i < assistantMessages; i++)
    messages.push(
      { role: 'assistant', content: [{ type: 'text', text: `reply ${i}` }] },
      { role: 'user', content: [{ type: 'text', text: 'go on' }] },
    );
  return {
    provider: 'replay',
    model,
    system: '',
    messages,
    tools: [],
    toolChoice: 'auto',
    maxTokens: 100,
  } as ModelRequest;
};
const complete = (r: ModelRequest) => replay.provider.complete(r, new AbortController().signal);

describe('the replay model provider', () => {
  it('answers reply N for a request holding N assistant messages, with its recorded usage and cost, every time', async () => {
    expect(replay.provider.name).toBe('replay');
    const first = await complete(request(0));
    expect(first).toMatchObject({ content: [{ type: 'text', text: 'first' }], costUsd: 0.01, model: 'case-a' });
    expect(first.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
    expect((await complete(request(1))).content).toEqual([{ type: 'text', text: 'second' }]);
    // A retry, a restarted worker or a repeat of the case asks the same and gets the same.
    expect((await complete(request(0))).content).toEqual([{ type: 'text', text: 'first' }]);
  });

  it('fails for good past the recording, and for a case it has no recording of', async () => {
    const past = await complete(request(2)).catch((err: unknown) => err);
    expect(past).toBeInstanceOf(ApplicationFailure);
    expect(past).toMatchObject({ type: FailureType.ScriptExhausted, nonRetryable: true });
    expect((past as Error).message).toBe('The recording of case "case-a" has 2 replies; the run asked for reply 3.');
    await expect(complete(request(0, 'case-b'))).rejects.toMatchObject({
      type: FailureType.ModelBadRequest,
      nonRetryable: true,
    });
  });
});

describe('the replayed tools (activity context)', () => {
  const run = (n: number) => `eval-1/case-a/offline/${n}`;

  it('answer a replayed case’s run from its recording: a recorded retry replays as one', async () => {
    const failed = await runTool(replayedRate, { pair: 'EURJPY' }, run(0), 1).catch((err: unknown) => err);
    expect(ToolError.is(failed)).toBe(true);
    expect(failed).toMatchObject({ message: 'timed out', retryable: true });
    expect(await runTool(replayedRate, { pair: 'EURJPY' }, run(0), 2)).toEqual({ rate: 161.5 });
    // The same attempt again (a worker that lost its reply) gets what it got before.
    expect(await runTool(replayedRate, { pair: 'EURJPY' }, run(0), 2)).toEqual({ rate: 161.5 });
    // The next call with the same arguments takes the next execution.
    expect(await runTool(replayedRate, { pair: 'EURJPY' }, run(0), 1, 'call-2')).toEqual({ rate: 162 });
    expect(realCalls).toBe(0);
  });

  it('skip the attempts a worker made before it restarted', async () => {
    const restarted = createEvalReplay({ evaluationId: 'eval-1', cases: [{ id: 'case-a', recordingFile: recording }] });
    const [rateAfterRestart] = restarted.wrapTools([rate]) as [ToolDefinition];
    expect(await runTool(rateAfterRestart, { pair: 'EURJPY' }, run(0), 2)).toEqual({ rate: 161.5 });
  });

  it('give each run of the case its own place in the recording', async () => {
    await runTool(replayedRate, { pair: 'EURJPY' }, run(1), 1).catch(() => undefined);
    expect(await runTool(replayedRate, { pair: 'EURJPY' }, run(1), 2)).toEqual({ rate: 161.5 });
  });

  it('refuse for good a call the recording lacks', async () => {
    const missing = await runTool(replayedRate, { pair: 'USDGBP' }, run(2)).catch((err: unknown) => err);
    expect(missing).toMatchObject({ retryable: false });
    expect((missing as Error).message).toMatch(
      /^No recorded execution of rate with arguments \{"pair":"USDGBP"\} is left in /,
    );
  });

  it('run for real: a tool the recording never ran, and every call of a run no recording serves', async () => {
    expect(await runTool(replayedEcho, { text: 'hi' }, run(0))).toEqual({ text: 'hi' });
    expect(await runTool(replayedRate, { pair: 'EURJPY' }, 'eval-1/case-b/offline/0')).toMatchObject({ real: 1 });
    expect(await runTool(replayedRate, { pair: 'EURJPY' }, 'agent-123')).toMatchObject({ real: 2 });
    // Outside an activity (a direct call), the tool runs as it is.
    expect(
      await replayedRate.execute(
        { pair: 'x' },
        {
          idempotencyKey: 'k',
          signal: new AbortController().signal,
          heartbeat() {},
          narrowVisibility() {},
          progress() {},
        },
      ),
    ).toMatchObject({ real: 3 });
  });

  it('read every recording when made, so a missing or malformed file fails before the evaluation', () => {
    expect(() =>
      createEvalReplay({ evaluationId: 'e', cases: [{ id: 'x', recordingFile: path.join(dir, 'none.jsonl') }] }),
    ).toThrow(/none\.jsonl: no such file/);
    const bad = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(bad, `${JSON.stringify(reply('ok', 0))}\n{"kind":"tool","tool":"rate"}\n`);
    expect(() => createEvalReplay({ evaluationId: 'e', cases: [{ id: 'x', recordingFile: bad }] })).toThrow(
      /bad\.jsonl:2 is not a recorded tool call/,
    );
  });
});
