import { MockActivityEnvironment } from '@temporalio/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createToolActivities } from '../../src/activities/tool-activities';
import type { ToolInvocation } from '../../src/domain';
import { defineTool } from '../../src/tools/define-tool';
import { createRedactor } from '../../src/tools/redact-secrets';
import { createToolRegistry } from '../../src/tools/tool-registry';

const call: ToolInvocation = { toolName: 'wait', arguments: {}, idempotencyKey: 'wf/1', maxResultChars: 10_000 };

/** Heartbeats runTool records while a tool takes `ms`, on the default pacing. */
async function heartbeatsDuring(ms: number): Promise<number> {
  const tool = defineTool({
    name: 'wait',
    description: 'waits',
    input: z.object({}),
    timeoutMs: 3_600_000,
    execute: () => new Promise((resolve) => setTimeout(() => resolve('done'), ms)),
  });
  const { runTool } = createToolActivities({ tools: createToolRegistry([tool]), redact: createRedactor([]) });
  const env = new MockActivityEnvironment();
  let beats = 0;
  env.on('heartbeat', () => (beats += 1));
  const running = env.run(runTool, call);
  await vi.advanceTimersByTimeAsync(ms);
  await running;
  return beats;
}

/**
 * Issue 45: every heartbeat sent is a billable action on Temporal Cloud. runTool beats once a
 * second (the worker's throttle, maxHeartbeatThrottleInterval), so the SDK sends each one as it is recorded.
 */
describe('runTool paces its heartbeats', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('a call shorter than 1 s sends none', async () => {
    expect(await heartbeatsDuring(950)).toBe(0);
  });

  it('a long call sends 60 a minute', async () => {
    expect(await heartbeatsDuring(60_000)).toBe(60);
  });
});
