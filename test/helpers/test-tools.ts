import { z } from 'zod';
import { defineTool, type ToolContext } from '../../src/tools/define-tool';

/** Calls seen by the test tools, so tests can count side effects and check idempotency keys. */
export interface ToolLog {
  calls: Array<{ tool: string; args: unknown; context: Pick<ToolContext, 'idempotencyKey'> }>;
}

export function testTools(log: ToolLog = { calls: [] }) {
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks up a number for a key',
    input: z.object({ key: z.string() }),
    retry: { maximumAttempts: 1 },
    execute: ({ key }, context) => {
      log.calls.push({ tool: 'lookup', args: { key }, context: { idempotencyKey: context.idempotencyKey } });
      return { key, value: key.length * 10 };
    },
  });
  const flaky = defineTool({
    name: 'always_fails',
    description: 'Fails every time',
    input: z.object({}),
    retry: { maximumAttempts: 2, initialIntervalMs: 10, backoffCoefficient: 1 },
    execute: (_args, context) => {
      log.calls.push({ tool: 'always_fails', args: {}, context: { idempotencyKey: context.idempotencyKey } });
      throw new Error('database unreachable');
    },
  });
  const big = defineTool({
    name: 'big_result',
    description: 'Returns a large text',
    input: z.object({ secret: z.boolean().default(false) }),
    execute: ({ secret }) => (secret ? 'the key is sk-ant-api03-SECRETSECRETSECRET' : 'y'.repeat(5_000)),
  });
  return { log, tools: [lookup, flaky, big] };
}

/**
 * A side-effecting tool that works for `ms`, recording `started`, `aborted` and `finished` in
 * `events`. It stops on cancellation unless `honoursCancel` is false.
 */
export function slowTool(events: string[], options: { honoursCancel?: boolean; ms?: number } = {}) {
  const { honoursCancel = true, ms = 20_000 } = options;
  return defineTool({
    name: 'slow_job',
    description: 'A long side-effecting job',
    input: z.object({}),
    retry: { maximumAttempts: 1 },
    timeoutMs: 60_000,
    execute: async (_args, { signal }) => {
      events.push('started');
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        if (!honoursCancel) return;
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          events.push('aborted');
          reject(new Error('aborted'));
        });
      });
      events.push('finished');
      return 'job done';
    },
  });
}
