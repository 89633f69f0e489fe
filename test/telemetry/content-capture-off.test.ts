import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollFor } from '../helpers/approval-helpers';
import { useTestEnv } from '../helpers/temporal-env';
import { loaded, runWithPolicy, startContentTelemetry } from './content-capture-setup';
import type { OtlpReceiver } from './otlp-receiver';

const env = useTestEnv();
let receiver: OtlpReceiver;
let bundlePath: string;
let close: () => Promise<void>;

beforeAll(async () => {
  // Telemetry on, content capture left at its default (off).
  delete process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT;
  ({ receiver, bundlePath, close } = await startContentTelemetry({}));
});
afterAll(() => close?.());

describe('content capture off (the default)', () => {
  it('records no step content, even with a policy whose telemetry view is the developer', async () => {
    const workflowId = await runWithPolicy(env, bundlePath, {
      agentName: 'content_off',
      policy: loaded({ version: 1, telemetry: { view: 'developer' } }),
    });
    const run = await pollFor('the run span', () =>
      receiver.spans.find(
        (s) => s.name === 'RunWorkflow:agentWorkflow' && s.attributes['thoughtline.workflow.id'] === workflowId,
      ),
    );
    const trace = receiver.spans.filter((s) => s.traceId === run.traceId);
    // The run was traced (its calls are there), and nothing of its steps.
    expect(trace.some((s) => s.name === 'execute_tool lookup')).toBe(true);
    expect(trace.filter((s) => s.name.startsWith('step '))).toEqual([]);
    expect(JSON.stringify(trace)).not.toContain('thoughtline.step.');
    expect(JSON.stringify(trace)).not.toContain('Thinking-7d41');
    expect(JSON.stringify(trace)).not.toContain('alpha is 1');
  });
});
