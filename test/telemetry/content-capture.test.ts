import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollFor } from '../helpers/approval-helpers';
import { useTestEnv } from '../helpers/temporal-env';
import { loaded, runWithPolicy, startContentTelemetry, THOUGHT } from './content-capture-setup';
import type { OtlpReceiver, ReceivedSpan } from './otlp-receiver';

const env = useTestEnv();
let receiver: OtlpReceiver;
let bundlePath: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ receiver, bundlePath, close } = await startContentTelemetry({
    OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
  }));
});
afterAll(() => close?.());

/** A policy that hides thinking from end users; `view` is the view telemetry records in. */
const hidingThinking = (view: 'end_user' | 'developer') =>
  loaded({ version: 1, roles: { end_user: { steps: { thinking: 'hidden' } } }, telemetry: { view } });

/** The run's trace once its step spans (through the answer) have arrived. */
async function traceOf(workflowId: string): Promise<ReceivedSpan[]> {
  const run = await pollFor('the run span', () =>
    receiver.spans.find(
      (s) => s.name === 'RunWorkflow:agentWorkflow' && s.attributes['thoughtline.workflow.id'] === workflowId,
    ),
  );
  await pollFor('the answer step span', () =>
    receiver.spans.find((s) => s.name === 'step synthesis' && s.attributes['thoughtline.workflow.id'] === workflowId),
  );
  return receiver.spans.filter((s) => s.traceId === run.traceId);
}

const stepSpans = (trace: ReceivedSpan[]) => trace.filter((s) => s.name.startsWith('step '));

describe('content capture under the visibility policy (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true)', () => {
  it("records each step the policy's telemetry view shows, under the run's span, and the hidden thought in no span", async () => {
    const endUser = await runWithPolicy(env, bundlePath, {
      agentName: 'content_end_user',
      policy: hidingThinking('end_user'),
    });
    const developer = await runWithPolicy(env, bundlePath, {
      agentName: 'content_developer',
      policy: hidingThinking('developer'),
    });

    // The developer's view of the same policy and run shows the thought: the step span carries it.
    const devTrace = await traceOf(developer);
    const devRun = devTrace.find((s) => s.name === 'RunWorkflow:agentWorkflow')!;
    const thought = stepSpans(devTrace).find((s) => s.name === 'step thinking');
    expect(thought?.attributes).toMatchObject({
      'thoughtline.step.type': 'thinking',
      'thoughtline.step.kind': 'thinking',
      'thoughtline.step.content': THOUGHT,
      'thoughtline.step.content_truncated': false,
      'thoughtline.view': 'developer',
      'gen_ai.agent.name': 'content_developer',
    });
    expect(thought?.parentSpanId).toBe(devRun.spanId);
    const call = stepSpans(devTrace).find(
      (s) => s.name === 'step tool_call' && s.attributes['gen_ai.tool.name'] === 'lookup',
    );
    // A model call is a step too, of its own kind.
    expect(stepSpans(devTrace).some((s) => s.attributes['thoughtline.step.kind'] === 'model_call')).toBe(true);
    expect(call?.attributes).toMatchObject({ 'thoughtline.step.kind': 'tool_call', 'gen_ai.tool.name': 'lookup' });
    expect(JSON.parse(String(call?.attributes['thoughtline.step.content']))).toEqual({ key: 'alpha' });
    expect(stepSpans(devTrace).find((s) => s.name === 'step synthesis')?.attributes['thoughtline.step.content']).toBe(
      'alpha is 1',
    );
    // Each recorded step once, though every workflow task was replayed from the start.
    const numbers = stepSpans(devTrace).map((s) => s.attributes['thoughtline.step.number']);
    expect(new Set(numbers).size).toBe(numbers.length);

    // The end user's view leaves the thought out: no span anywhere in its trace holds its text.
    const userTrace = await traceOf(endUser);
    expect(stepSpans(userTrace).length).toBeGreaterThan(0);
    expect(stepSpans(userTrace).every((s) => s.attributes['thoughtline.view'] === 'end_user')).toBe(true);
    expect(stepSpans(userTrace).some((s) => s.name === 'step thinking')).toBe(false);
    expect(JSON.stringify(userTrace)).not.toContain('Thinking-7d41');
    expect(receiver.rejected).toEqual([]);
  });

  it("labels every metric of a tenant's run with thoughtline.tenant, and no metric of a run without one", async () => {
    await runWithPolicy(env, bundlePath, { agentName: 'tenant_run', caller: { id: 'u-1', roles: [], tenant: 'acme' } });
    await runWithPolicy(env, bundlePath, { agentName: 'untenanted_run' });
    const pointsOf = (agent: string) => receiver.points.filter((p) => p.attributes['gen_ai.agent.name'] === agent);
    await pollFor('the runs ended', () =>
      ['tenant_run', 'untenanted_run'].every((a) => pointsOf(a).some((p) => p.metric === 'thoughtline.runs.ended')),
    );
    const metrics = [
      'thoughtline.runs.started',
      'thoughtline.runs.ended',
      'thoughtline.tokens',
      'gen_ai.client.operation.duration',
      'thoughtline.tool.duration',
    ];
    for (const metric of metrics) {
      const tenant = pointsOf('tenant_run').filter((p) => p.metric === metric);
      const none = pointsOf('untenanted_run').filter((p) => p.metric === metric);
      expect(tenant.length, metric).toBeGreaterThan(0);
      expect(none.length, metric).toBeGreaterThan(0);
      for (const p of tenant) expect(p.attributes['thoughtline.tenant'], metric).toBe('acme');
      for (const p of none) expect(p.attributes, metric).not.toHaveProperty('thoughtline.tenant');
    }
  });
});
