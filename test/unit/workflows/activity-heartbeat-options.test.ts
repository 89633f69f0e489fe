import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelSettings } from '../../../src/domain/model/model-settings';
import { TOOL_HEARTBEAT_EVERY_MS, TOOL_HEARTBEAT_TIMEOUT_MS } from '../../../src/domain/tools/tool-heartbeat';
import { defineTool } from '../../../src/tools/define-tool';
import { toToolSpec } from '../../../src/tools/tool-registry';
import { localToolCallOptions, modelCallOptions, toolCallOptions } from '../../../src/workflows/activity-proxies';

const specOf = (options: { timeoutMs?: number; local?: boolean }) =>
  toToolSpec(
    defineTool({ name: 'probe', description: 'test tool', input: z.object({}), execute: () => 'ok', ...options }),
  );

/** Issue 45: a worker killed mid-call is noticed within seconds, whatever the call's own timeout. */
describe('heartbeat timeouts of model and tool calls', () => {
  it.each([1_000, 30_000, 3_600_000])(
    'a tool call with a %i ms limit times out after 5 s without a heartbeat',
    (timeoutMs) => {
      const options = toolCallOptions(specOf({ timeoutMs }), 'probe');
      expect(options).toMatchObject({ startToCloseTimeout: timeoutMs, heartbeatTimeout: 5_000 });
      expect(TOOL_HEARTBEAT_TIMEOUT_MS).toBe(5_000);
    },
  );

  it('runTool heartbeats once a second: a cancel reaches a tool within the 1.5 s a cancelled run waits for it', () => {
    expect(TOOL_HEARTBEAT_EVERY_MS).toBe(1_000);
  });

  it('a local tool gets no heartbeat timeout: a local activity cannot heartbeat', () => {
    expect(localToolCallOptions(specOf({ local: true }), 'probe')).not.toHaveProperty('heartbeatTimeout');
  });

  it('a model call times out after 5 s without a heartbeat by default, and a run may set its own', () => {
    expect(modelCallOptions(ModelSettings.parse({}), 'm').heartbeatTimeout).toBe(5_000);
    expect(modelCallOptions(ModelSettings.parse({ heartbeatTimeoutMs: 20_000 }), 'm').heartbeatTimeout).toBe(20_000);
  });
});
