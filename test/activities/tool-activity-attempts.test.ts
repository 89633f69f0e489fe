import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRedactor } from '../../src/tools/redact-secrets';
import { createToolActivities } from '../../src/activities/tool-activities';
import { wellFormedFailures } from '../../src/activities/well-formed-failures';
import { FailureType, type ToolInvocation, type ToolOutput } from '../../src/domain';
import { defineTool } from '../../src/tools/define-tool';
import { ToolError } from '../../src/tools/tool-error';
import { createToolRegistry } from '../../src/tools/tool-registry';

/** A key-shaped value built at run time, so no literal token sits in the source. */
const KEY = `sk-ant-api03-${'aB3xY9kQ7mZ2'.repeat(5)}`;

const call: ToolInvocation = { toolName: 'probe', arguments: {}, idempotencyKey: 'wf/1', maxResultChars: 10_000 };

function activitiesWith(execute: () => unknown) {
  const tool = defineTool({ name: 'probe', description: 'test tool', input: z.object({}), execute });
  return createToolActivities({
    tools: createToolRegistry([tool]),
    redact: createRedactor([]),
    heartbeatEveryMs: 60_000,
  });
}

async function failureOf(run: () => Promise<unknown>): Promise<ApplicationFailure> {
  try {
    await run();
  } catch (err) {
    expect(err).toBeInstanceOf(ApplicationFailure);
    return err as ApplicationFailure;
  }
  throw new Error('expected the activity to fail');
}

/** A named function, so its frame is easy to find in a stack. */
function usersExecuteThatThrows(): never {
  throw new TypeError(`cannot reach the ledger with ${KEY}`);
}

/** Issue 15, item 9: attempts, final refusals and the user's stack, as they leave `runTool`. */
describe('runTool reports attempts, refusals and where the tool threw', () => {
  it('the first attempt reports its run time and attempt 1', async () => {
    const out = (await new MockActivityEnvironment().run(activitiesWith(() => 'ok').runTool, call)) as ToolOutput;
    expect(out).toMatchObject({ result: 'ok', attempts: 1 });
    expect(out.durationMs).toBeLessThan(1_000);
  });

  it('a later attempt reports its number and the time since the first attempt was scheduled', async () => {
    const env = new MockActivityEnvironment({ attempt: 3, scheduledTimestampMs: Date.now() - 3_100 });
    const out = (await env.run(activitiesWith(() => 'ok').runTool, call)) as ToolOutput;
    expect(out.attempts).toBe(3);
    expect(out.durationMs).toBeGreaterThanOrEqual(3_100);
  });

  it('a ToolError with retryable: false is a final ToolRefused failure carrying its attempt', async () => {
    const env = new MockActivityEnvironment({ attempt: 2 });
    const failure = await failureOf(() =>
      env.run(
        activitiesWith(() => {
          throw new ToolError('Not allowed for this account.', { retryable: false });
        }).runTool,
        call,
      ),
    );
    expect(failure).toMatchObject({
      type: FailureType.ToolRefused,
      nonRetryable: true,
      message: 'Not allowed for this account.',
      details: [{ attempts: 2 }],
    });
  });

  it('a ToolError that may be retried, and a plain Error, are retryable ToolFailed failures', async () => {
    for (const thrown of [new ToolError('busy, try again'), new Error('busy, try again')]) {
      const failure = await failureOf(() =>
        new MockActivityEnvironment().run(
          activitiesWith(() => {
            throw thrown;
          }).runTool,
          call,
        ),
      );
      expect(failure).toMatchObject({
        type: FailureType.ToolFailed,
        nonRetryable: false,
        message: 'probe failed: busy, try again',
        details: [{ attempts: 1 }],
      });
    }
  });

  it("the failure's stack is the tool's own, redacted, also after the worker's interceptor", async () => {
    const env = new MockActivityEnvironment(undefined, { interceptors: [wellFormedFailures()] });
    const failure = await failureOf(() => env.run(activitiesWith(usersExecuteThatThrows).runTool, call));
    const frames = failure.stack!.split('\n').filter((line) => /^\s+at /.test(line));
    expect(frames[0]).toContain('usersExecuteThatThrows');
    expect(frames[0]).toContain('tool-activity-attempts.test.ts');
    expect(failure.stack).toContain('cannot reach the ledger with [REDACTED]');
    expect(failure.stack).not.toContain(KEY);
  });

  it('ToolError.is recognises a ToolError from another copy of the package by its brand', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('thoughtline.ToolError')]: true, retryable: false });
    expect(ToolError.is(foreign)).toBe(true);
    expect(ToolError.is(new Error('x'))).toBe(false);
    expect(new ToolError('x').retryable).toBe(true);
  });
});
