import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolActivities } from '../../src/activities/tool-activities';
import type { ToolInvocation, ToolOutput } from '../../src/domain';
import { defineTool, type ToolOptions } from '../../src/tools/define-tool';
import { createRedactor } from '../../src/tools/redact-secrets';
import { createToolRegistry } from '../../src/tools/tool-registry';

const KEY = `sk-ant-api03-${'aB3xY9kQ7mZ2'.repeat(5)}`;

const call: ToolInvocation = {
  toolName: 'pay',
  arguments: { amount: 5 },
  idempotencyKey: 'wf:step-1',
  maxResultChars: 10_000,
};

function activitiesWith(options: Partial<ToolOptions<z.ZodObject<{ amount: z.ZodNumber }>, unknown>>, ran: string[]) {
  const pay = defineTool({
    name: 'pay',
    description: 'Pays',
    input: z.object({ amount: z.number() }),
    execute: ({ amount }) => {
      ran.push(`paid ${amount}`);
      return `paid ${amount}`;
    },
    ...options,
  } as ToolOptions<z.ZodObject<{ amount: z.ZodNumber }>, unknown>);
  const quote = defineTool({ name: 'quote', description: 'Quotes', input: z.object({}), execute: () => 1 });
  return createToolActivities({
    tools: createToolRegistry([pay, quote]),
    redact: createRedactor([KEY]),
    heartbeatEveryMs: 60_000,
  });
}

const run = (env: MockActivityEnvironment, fn: (...args: never[]) => unknown, input: unknown) =>
  env.run(fn as (input: unknown) => Promise<unknown>, input);

describe('runTool with a validate hook', () => {
  it('refuses before the tool runs, with the reason (redacted and bounded) as the output', async () => {
    const ran: string[] = [];
    const seen: unknown[] = [];
    const acts = activitiesWith(
      {
        validate: (args, ctx) => {
          seen.push([args, ctx.idempotencyKey]);
          return args.amount > 3 ? `amount above the limit of 3; key ${KEY} ${'x'.repeat(2_000)}` : undefined;
        },
      },
      ran,
    );
    const out = (await run(new MockActivityEnvironment(), acts.runTool, call)) as ToolOutput;
    expect(ran).toEqual([]);
    expect(out).toMatchObject({ result: null, truncated: false, attempts: 1 });
    expect(out.refused).toMatch(/^amount above the limit of 3; key \[REDACTED\] x+…$/);
    expect(out.refused!.length).toBeLessThanOrEqual(1_001 + 20);
    expect(seen).toEqual([[{ amount: 5 }, 'wf:step-1']]);

    const allowed = (await run(new MockActivityEnvironment(), acts.runTool, {
      ...call,
      arguments: { amount: 2 },
    })) as ToolOutput;
    expect(allowed).toMatchObject({ result: 'paid 2' });
    expect(allowed.refused).toBeUndefined();
    expect(ran).toEqual(['paid 2']);
  });

  it('fails closed: a hook that throws or answers nonsense refuses', async () => {
    const ran: string[] = [];
    const throwing = activitiesWith(
      {
        validate: () => {
          throw new Error('rules unreadable');
        },
      },
      ran,
    );
    const out = (await run(new MockActivityEnvironment(), throwing.runTool, call)) as ToolOutput;
    expect(out.refused).toBe('its validate hook failed: rules unreadable');
    const odd = activitiesWith({ validate: (() => 42) as never }, ran);
    expect(((await run(new MockActivityEnvironment(), odd.runTool, call)) as ToolOutput).refused).toBe(
      'its validate hook gave no readable reason',
    );
    expect(ran).toEqual([]);
  });

  it('is asked only on the first attempt and not again for a call validated before approval', async () => {
    const ran: string[] = [];
    let asked = 0;
    const acts = activitiesWith({ validate: () => (asked++, 'no') }, ran);
    await run(new MockActivityEnvironment({ attempt: 2 }), acts.runTool, call);
    await run(new MockActivityEnvironment(), acts.runTool, { ...call, validated: true });
    expect(asked).toBe(0);
    expect(ran).toEqual(['paid 5', 'paid 5']);
  });

  it('validateToolCall runs the hook alone, without running the tool', async () => {
    const ran: string[] = [];
    const acts = activitiesWith({ validate: ({ amount }) => (amount > 3 ? 'too much' : undefined) }, ran);
    expect(await run(new MockActivityEnvironment(), acts.validateToolCall, call)).toEqual({ refused: 'too much' });
    expect(
      await run(new MockActivityEnvironment(), acts.validateToolCall, { ...call, arguments: { amount: 1 } }),
    ).toEqual({});
    expect(
      await run(new MockActivityEnvironment(), acts.validateToolCall, { ...call, arguments: { amount: 'x' } }),
    ).toMatchObject({
      refused: expect.stringContaining('Invalid arguments for pay'),
    });
    expect(ran).toEqual([]);
  });
});

describe('reconcileTool', () => {
  it("passes on the hook's answer, its result redacted", async () => {
    const keys: string[] = [];
    const acts = activitiesWith(
      {
        effects: 'once',
        reconcile: (key) => (keys.push(key), { happened: true, result: `receipt ${KEY}` }),
      },
      [],
    );
    expect(await run(new MockActivityEnvironment(), acts.reconcileTool, call)).toEqual({
      happened: true,
      result: 'receipt [REDACTED]',
    });
    expect(keys).toEqual(['wf:step-1']);
    const no = activitiesWith({ effects: 'once', reconcile: () => ({ happened: false }) }, []);
    expect(await run(new MockActivityEnvironment(), no.reconcileTool, call)).toEqual({ happened: false });
  });

  it('fails for good when the hook throws, answers nonsense, or is missing', async () => {
    const failing = async (acts: ReturnType<typeof activitiesWith>, toolName = 'pay') => {
      try {
        await run(new MockActivityEnvironment(), acts.reconcileTool, { ...call, toolName });
      } catch (err) {
        expect(err).toBeInstanceOf(ApplicationFailure);
        return err as ApplicationFailure;
      }
      throw new Error('expected reconcileTool to fail');
    };
    const thrown = await failing(
      activitiesWith(
        {
          effects: 'once',
          reconcile: () => {
            throw new Error(`db down ${KEY}`);
          },
        },
        [],
      ),
    );
    expect(thrown).toMatchObject({ nonRetryable: true, message: "pay's reconcile failed: db down [REDACTED]" });
    const odd = await failing(
      activitiesWith({ effects: 'once', reconcile: (() => ({ happened: 'maybe' })) as never }, []),
    );
    expect(odd.message).toMatch(/answered neither/);
    const missing = await failing(activitiesWith({}, []), 'quote');
    expect(missing.message).toMatch(/has no reconcile hook/);
  });
});

describe('narrowVisibility', () => {
  it('is returned with the output of runTool and reconcileTool, its line redacted; validate cannot narrow', async () => {
    const acts = activitiesWith(
      {
        effects: 'once',
        validate: (_args, ctx) => void ctx.narrowVisibility('hidden'),
        execute: ({ amount }, ctx) => {
          ctx.narrowVisibility('summary', `Paid with key ${KEY}`);
          return `paid ${amount}`;
        },
        reconcile: (_key, ctx) => {
          ctx.narrowVisibility('hidden');
          return { happened: true, result: 'receipt' };
        },
      },
      [],
    );
    const out = (await run(new MockActivityEnvironment(), acts.runTool, call)) as ToolOutput;
    expect(out.visibility).toEqual({ level: 'summary', summary: 'Paid with key [REDACTED]' });
    expect(await run(new MockActivityEnvironment(), acts.reconcileTool, call)).toEqual({
      happened: true,
      result: 'receipt',
      visibility: { level: 'hidden' },
    });
    const plain = activitiesWith({}, []);
    expect((await run(new MockActivityEnvironment(), plain.runTool, call)) as ToolOutput).not.toHaveProperty(
      'visibility',
    );
  });
});

describe('describeTools', () => {
  it("keeps only the alternatives the run's tool set has", async () => {
    const acts = activitiesWith({ alternatives: ['quote', 'pay_later'] }, []);
    const specs = await run(new MockActivityEnvironment(), acts.describeTools, undefined);
    expect(specs).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'pay', alternatives: ['quote'] })]));
    const alone = (await run(new MockActivityEnvironment(), acts.describeTools, ['pay'])) as Array<
      Record<string, unknown>
    >;
    expect(alone[0]).not.toHaveProperty('alternatives');
  });
});
