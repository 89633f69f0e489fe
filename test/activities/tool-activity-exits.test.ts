import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createModelActivities } from '../../src/activities/model-activities';
import { createRedactor } from '../../src/tools/redact-secrets';
import { createToolActivities } from '../../src/activities/tool-activities';
import { wellFormedFailures } from '../../src/activities/well-formed-failures';
import { FailureType, type ModelRequest, type ToolInvocation, type ToolOutput } from '../../src/domain';
import { defineTool, type ToolContext } from '../../src/tools/define-tool';
import { createToolRegistry } from '../../src/tools/tool-registry';

/** Key-shaped values built at run time, so no literal token sits in the source. */
const fake = (prefix: string, length: number): string =>
  prefix + Array.from({ length }, (_, i) => 'aB3xY9kQ7mZ2'[i % 12]).join('');
const ANTHROPIC = fake('sk-ant-api03-', 60);
const GITHUB = fake('ghp_', 36);
const KNOWN = 'the-worker-known-secret-value';
/** Nothing of these may reach what leaves the activity. */
const SECRETS = [ANTHROPIC, GITHUB, KNOWN, 'hunter22', fake('', 60)];

function activitiesWith(execute: (args: Record<string, never>, context: ToolContext) => unknown) {
  const tool = defineTool({ name: 'probe', description: 'test tool', input: z.object({}), execute });
  return createToolActivities({
    tools: createToolRegistry([tool]),
    redact: createRedactor([KNOWN]),
    heartbeatEveryMs: 60_000,
  });
}

/** Runs the probe tool's activity once, as a worker would. */
const runProbe = (activities: ReturnType<typeof activitiesWith>, invocation: ToolInvocation): Promise<ToolOutput> =>
  new MockActivityEnvironment().run(activities.runTool, invocation) as Promise<ToolOutput>;

const call = (maxResultChars = 10_000): ToolInvocation => ({
  toolName: 'probe',
  arguments: {},
  idempotencyKey: 'wf/1',
  maxResultChars,
});

/** Everything Temporal would send or log of a failure: message, stack, details, causes. */
function failureText(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let i = 0; current instanceof Error && i < 10; i += 1) {
    parts.push(current.message, current.stack ?? '');
    if (current instanceof ApplicationFailure) parts.push(JSON.stringify(current.details ?? null));
    current = current.cause;
  }
  if (current !== undefined) parts.push(JSON.stringify(current) ?? String(current));
  return parts.join('\n');
}

async function failureOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error('expected the activity to fail');
}

const expectNoSecret = (text: string) => {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
};

describe('runTool: no secret leaves through an error (issue 14, class 5)', () => {
  it('an ApplicationFailure: message, details, cause and stack redacted; type and retry decision kept', async () => {
    const cause = new Error(`upstream said ${GITHUB}`);
    const activities = activitiesWith(() => {
      throw ApplicationFailure.create({
        type: 'UpstreamRefused',
        message: `key ${ANTHROPIC} refused; known ${KNOWN}`,
        details: [
          { token: 'hunter22', nested: { note: `Authorization: Bearer ${fake('', 60)}` } },
          `password=hunter22`,
        ],
        nonRetryable: true,
        cause,
      });
    });
    const err = await failureOf(() => new MockActivityEnvironment().run(activities.runTool, call()));
    expect(err).toBeInstanceOf(ApplicationFailure);
    const failure = err as ApplicationFailure;
    expect(failure.type).toBe('UpstreamRefused');
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toContain('[REDACTED]');
    expect(failure.details).toEqual([
      { token: '[REDACTED]', nested: { note: 'Authorization: Bearer [REDACTED]' } },
      'password=[REDACTED]',
    ]);
    expect((failure.cause as Error).message).toBe('upstream said [REDACTED]');
    expectNoSecret(failureText(err));
  });

  it('a plain Error, a string and an object without a prototype', async () => {
    const thrown: unknown[] = [
      new TypeError(`bad ${ANTHROPIC}`),
      `raw ${GITHUB}`,
      Object.assign(Object.create(null) as object, { k: KNOWN }),
    ];
    for (const value of thrown) {
      const activities = activitiesWith(() => {
        throw value;
      });
      const err = await failureOf(() => new MockActivityEnvironment().run(activities.runTool, call()));
      expect(err).toBeInstanceOf(ApplicationFailure);
      expect((err as ApplicationFailure).type).toBe(FailureType.ToolFailed);
      expectNoSecret(failureText(err));
    }
  });

  it('an error that cannot be changed in place (frozen, or a message getter) is replaced, type and retry kept', async () => {
    class GetterError extends Error {
      override get message(): string {
        return `getter ${ANTHROPIC}`;
      }
    }
    const frozen = Object.freeze(
      ApplicationFailure.create({ type: 'Frozen', message: `frozen ${ANTHROPIC}`, nonRetryable: true }),
    );
    for (const value of [frozen, new GetterError()]) {
      const err = await failureOf(() =>
        runProbe(
          activitiesWith(() => {
            throw value;
          }),
          call(),
        ),
      );
      expect(err).toBeInstanceOf(ApplicationFailure);
      expectNoSecret(failureText(err));
    }
    const err = await failureOf(() =>
      runProbe(
        activitiesWith(() => {
          throw frozen;
        }),
        call(),
      ),
    );
    expect(err).toMatchObject({ type: 'Frozen', nonRetryable: true });
  });

  it('heartbeat details', async () => {
    const beats: unknown[] = [];
    const activities = activitiesWith((_args, context) => {
      context.heartbeat({ progress: `using ${ANTHROPIC}`, password: 'hunter22' });
      let deep: unknown = KNOWN;
      for (let i = 0; i < 5_000; i += 1) deep = [deep];
      context.heartbeat(deep);
      return 'done';
    });
    const env = new MockActivityEnvironment();
    env.on('heartbeat', (details: unknown) => beats.push(details));
    await env.run(activities.runTool, call());
    expect(beats[0]).toEqual({ progress: 'using [REDACTED]', password: '[REDACTED]' });
    expect(beats).toHaveLength(2);
    expectNoSecret(JSON.stringify(beats));
  });

  it('a model provider error', async () => {
    const model = createModelActivities({
      redact: createRedactor([KNOWN]),
      models: {
        anthropic: {
          name: 'anthropic',
          complete: () =>
            Promise.reject(
              ApplicationFailure.create({
                type: FailureType.ModelAuthentication,
                message: `invalid x-api-key ${ANTHROPIC}`,
                details: [{ apiKey: KNOWN }],
                nonRetryable: true,
              }),
            ),
        },
      },
    });
    const request = { provider: 'anthropic', model: 'm' } as unknown as ModelRequest;
    const err = await failureOf(() => new MockActivityEnvironment().run(model.callModel, request));
    expect((err as ApplicationFailure).type).toBe(FailureType.ModelAuthentication);
    expect((err as ApplicationFailure).nonRetryable).toBe(true);
    expectNoSecret(failureText(err));
  });
});

describe('every activity: the worker interceptor', () => {
  it('redacts secret shapes from any failure before the SDK logs or sends it', async () => {
    const { inbound } = wellFormedFailures()({} as never);
    const failing = () =>
      Promise.reject(
        ApplicationFailure.create({ message: `tenant said ${ANTHROPIC}`, details: [{ secret: 'hunter22' }] }),
      );
    const err = await failureOf(() => inbound!.execute!({} as never, failing));
    expect((err as Error).message).toBe('tenant said [REDACTED]');
    expectNoSecret(failureText(err));
  });

  it("redacts the worker's own listed secrets too, which have no recognisable shape, from any activity's failure", async () => {
    const { inbound } = wellFormedFailures(['plain-looking-value-42'])({} as never);
    const failing = () =>
      Promise.reject(
        new Error('could not reach https://db.internal with plain-looking-value-42', {
          cause: new Error('plain-looking-value-42 refused'),
        }),
      );
    const err = await failureOf(() => inbound!.execute!({} as never, failing));
    expect(failureText(err)).not.toContain('plain-looking-value-42');
    expect((err as Error).message).toBe('could not reach https://db.internal with [REDACTED]');
  });
});

describe('runTool: results are cut before they are redacted (issue 14, class 6)', () => {
  it('a secret straddling the cut is still redacted', async () => {
    const text = `${'x'.repeat(990)} ${ANTHROPIC} ${'y'.repeat(100_000)}`;
    const activities = activitiesWith(() => text);
    const out = await runProbe(activities, call(1_000));
    expect(out.truncated).toBe(true);
    expect(String(out.result)).toMatch(/^x{990} \[REDACTED\n/);
    expect(String(out.result)).toContain(`[truncated: showing 1000 of ${text.length} characters]`);
    expect(String(out.result)).not.toContain('sk-ant');
  });

  it('values under credential-named keys go before the cut, and small results keep their shape', async () => {
    const big = await runProbe(
      activitiesWith(() => ({ password: 'hunter22', filler: 'z'.repeat(50_000) })),
      call(100),
    );
    expect(big.truncated).toBe(true);
    expect(String(big.result)).toContain('"password":"[REDACTED]"');
    const small = await runProbe(
      activitiesWith(() => ({ password: 'hunter22', note: `k ${ANTHROPIC}` })),
      call(),
    );
    expect(small).toMatchObject({ truncated: false, result: { password: '[REDACTED]', note: 'k [REDACTED]' } });
  });

  it('a 5 MiB hostile result is cut and redacted quickly', async () => {
    const activities = activitiesWith(() => 'sk-'.repeat((5 * 1024 * 1024) / 3));
    const started = performance.now();
    const out = await runProbe(activities, call(100_000));
    expect(out.truncated).toBe(true);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe('runTool: what fails after execute is not retried (issue 14, class 7)', () => {
  const deep = (levels: number): unknown => {
    let value: unknown = 'leaf';
    for (let i = 0; i < levels; i += 1) value = { a: value };
    return value;
  };

  it.each([2_000, 200_000])('a result nested %i deep fails non-retryably after exactly one execute', async (levels) => {
    let runs = 0;
    const activities = activitiesWith(() => {
      runs += 1;
      return deep(levels);
    });
    const err = await failureOf(() => new MockActivityEnvironment().run(activities.runTool, call()));
    expect(runs).toBe(1);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect((err as ApplicationFailure).type).toBe(FailureType.ToolResultUnusable);
    expect((err as ApplicationFailure).nonRetryable).toBe(true);
    expect((err as ApplicationFailure).message).toMatch(
      /^probe ran, but its result could not be used: .*nested deeper than 128/,
    );
  });

  it('a result whose getter throws while it is converted', async () => {
    const activities = activitiesWith(() => ({
      get boom(): string {
        throw new Error(`getter saw ${ANTHROPIC}`);
      },
    }));
    const err = await failureOf(() => new MockActivityEnvironment().run(activities.runTool, call()));
    expect((err as ApplicationFailure).type).toBe(FailureType.ToolResultUnusable);
    expect((err as ApplicationFailure).nonRetryable).toBe(true);
    expectNoSecret(failureText(err));
  });

  it('a result nested 100 deep is still a result', async () => {
    const out = await runProbe(
      activitiesWith(() => deep(100)),
      call(),
    );
    expect(out.truncated).toBe(false);
  });
});
