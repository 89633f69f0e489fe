import { MockActivityEnvironment } from '@temporalio/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ToolHeartbeat } from '../../src/domain/tools/tool-progress';
import { createToolActivities, type ToolProgressEvent } from '../../src/activities/tool-activities';
import type { ToolInvocation } from '../../src/domain';
import { MAX_PROGRESS_PER_ATTEMPT } from '../../src/domain/tools/tool-progress';
import { defineTool, type ToolContext } from '../../src/tools/define-tool';
import { createRedactor } from '../../src/tools/redact-secrets';
import { createToolRegistry } from '../../src/tools/tool-registry';

const SECRET = 'sk-live-progress-secret-123456';
const call: ToolInvocation = { toolName: 'scan', arguments: {}, idempotencyKey: 'wf-1:step-7', maxResultChars: 10_000 };

/** Runs a `scan` tool whose body is `body` under fake timers; returns what onToolProgress and the heartbeats carried. */
async function runScan(body: (ctx: ToolContext) => Promise<unknown>, runForMs: number) {
  const tool = defineTool({
    name: 'scan',
    description: 'scans',
    input: z.object({}),
    timeoutMs: 3_600_000,
    sensitiveFields: ['token'],
    execute: (_args, ctx) => body(ctx),
  });
  const published: ToolProgressEvent[] = [];
  const { runTool } = createToolActivities({
    tools: createToolRegistry([tool]),
    redact: createRedactor([SECRET]),
    onToolProgress: (p) => published.push(p),
  });
  const env = new MockActivityEnvironment({ workflowExecution: { workflowId: 'wf-1', runId: 'r' }, activityId: '9' });
  const beats: unknown[] = [];
  env.on('heartbeat', (details: unknown) => beats.push(details));
  const running = env.run(runTool, call);
  await vi.advanceTimersByTimeAsync(runForMs);
  await running;
  return { published, beats };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ctx.progress: a running tool tells watchers how it goes', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('publishes to onToolProgress as the run call step, redacted, and the keep-alive heartbeat carries the latest', async () => {
    const { published, beats } = await runScan(async (ctx) => {
      ctx.progress({ message: `using ${SECRET}`, fraction: 0.25, data: { token: 'abc', files: 3 } });
      await sleep(1_500);
      ctx.progress('half way');
      await sleep(1_000);
      return 'done';
    }, 2_500);
    expect(published.map((p) => [p.seq, p.message, p.fraction])).toEqual([
      [1, expect.not.stringContaining(SECRET), 0.25],
      [2, 'half way', undefined],
    ]);
    expect(published[0]).toMatchObject({
      workflowId: 'wf-1',
      callStepId: 'step-7',
      activityId: '9',
      toolName: 'scan',
      attempt: 1,
    });
    expect(published[0]!.data).toEqual({ token: expect.not.stringMatching(/^abc$/), files: 3 });
    // No extra heartbeats: the two keep-alive beats of a 2.5 s call, carrying what was latest then,
    // with the call step and tool, so a follower without a server can place it (ToolHeartbeat).
    expect(beats).toHaveLength(2);
    const placed = { stepId: 'step-7', toolName: 'scan' };
    expect(beats[0]).toEqual({ progress: expect.objectContaining({ seq: 1, fraction: 0.25 }), ...placed });
    expect(beats[1]).toEqual({ progress: expect.objectContaining({ seq: 2, message: 'half way' }), ...placed });
    expect(beats.map((b) => ToolHeartbeat.safeParse(b).success)).toEqual([true, true]);
    expect(JSON.stringify(beats)).not.toContain(SECRET);
  });

  it('sends at most 4 a second, the latest of a burst winning, and the last word before the call ends', async () => {
    const { published } = await runScan(async (ctx) => {
      for (let i = 1; i <= 40; i += 1) {
        ctx.progress({ fraction: i / 40 });
        await sleep(25);
      }
      ctx.progress({ message: 'final', fraction: 1 });
      return 'done';
    }, 1_100);
    // 1 s of updates every 25 ms: the first at once, then one each 250 ms, then the trailing one at the end.
    expect(published.length).toBeLessThanOrEqual(6);
    expect(published.length).toBeGreaterThanOrEqual(4);
    expect(published.at(-1)).toMatchObject({ message: 'final', fraction: 1, seq: 41 });
    const fractions = published.map((p) => p.fraction!);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
  });

  it(`accepts ${MAX_PROGRESS_PER_ATTEMPT} updates an attempt and drops the rest`, async () => {
    const { published } = await runScan(
      async (ctx) => {
        for (let i = 1; i <= MAX_PROGRESS_PER_ATTEMPT + 20; i += 1) {
          ctx.progress(`update ${i}`);
          await sleep(250);
        }
        return 'done';
      },
      (MAX_PROGRESS_PER_ATTEMPT + 21) * 250,
    );
    expect(published).toHaveLength(MAX_PROGRESS_PER_ATTEMPT);
    expect(published.at(-1)).toMatchObject({
      seq: MAX_PROGRESS_PER_ATTEMPT,
      message: `update ${MAX_PROGRESS_PER_ATTEMPT}`,
    });
  });

  it('a progress the tool gives after it returned reaches no one', async () => {
    let kept: ToolContext | undefined;
    const { published } = await runScan(async (ctx) => {
      kept = ctx;
      return 'done';
    }, 10);
    kept!.progress('late');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(published).toEqual([]);
  });
});
