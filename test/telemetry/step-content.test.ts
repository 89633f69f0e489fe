import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { LoadedPolicy } from '../../src/governance';
import type { ReasoningStep } from '../../src/domain/chain/chain';
import type { RunEvent } from '../../src/domain/run/run-event';
import { VisibilityPolicy, type VisibilityPolicyInit } from '../../src/domain/visibility';
import { createRunSpans } from '../../src/telemetry/run-spans';
import { createStepContent } from '../../src/telemetry/step-content';

const RUN = 'wf-content';
const TRACE = '0af7651916cd43dd8448eb211c80319c';
const RUN_SPAN = 'b7ad6b7169203331';
const OPENAI_KEY = 'sk-proj-abcdefghijklmnopqrstuvwx1234';

const step = (n: number, body: Record<string, unknown>): ReasoningStep =>
  ({
    stepId: `s${n}`,
    stepNumber: n,
    timestamp: '2026-01-01T00:00:00.000Z',
    iteration: 0,
    visibility: { level: 'full' },
    ...body,
  }) as ReasoningStep;

const thought = (n: number, text: string) => step(n, { type: 'thinking', thought: text });
const lookup = (n: number, args: Record<string, unknown>) =>
  step(n, {
    type: 'tool_call',
    toolCall: { toolType: 'database', toolName: 'lookup', arguments: args, correlationId: `c${n}` },
  });
const result = (n: number, call: number, value: unknown) =>
  step(n, {
    type: 'tool_result',
    toolResult: { correlationId: `c${call}`, success: true, result: value, durationMs: 1 },
  });

const event = (s: ReasoningStep): RunEvent => ({
  type: 'step',
  runId: RUN,
  chainStatus: 'thinking',
  stepNumber: s.stepNumber,
  step: s,
});

/** A recorder on an in-memory exporter, the run's span known as the workflow's sink tells it. */
function recorder(init?: VisibilityPolicyInit, tenant?: string, ancestors?: string[]) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const runSpans = createRunSpans();
  runSpans.set(RUN, {
    agentName: 'billing',
    runKind: 'root',
    traceId: TRACE,
    spanId: RUN_SPAN,
    traceFlags: 1,
    ...(tenant ? { tenant } : {}),
    ...(ancestors ? { runKind: 'sub_agent' as const, ancestors } : {}),
  });
  const policy: LoadedPolicy | undefined = init ? { policy: VisibilityPolicy.parse(init), path: 'p.yaml' } : undefined;
  const content = createStepContent(provider.getTracer('test'), runSpans, policy);
  const spans = (): Record<string, unknown>[] =>
    exporter.getFinishedSpans().map((s) => ({ name: s.name, parent: s.parentSpanId, ...s.attributes }));
  return { content, spans, runSpans };
}

describe('step content as the telemetry view shows it', () => {
  it("without a policy: the developer's view, under the run's span, with secrets and sensitive fields redacted", () => {
    const { content, spans } = recorder();
    content.observe(event(thought(1, `Using key ${OPENAI_KEY}`)));
    const call = lookup(2, { account: 'ACCT-99887766', q: 'x' });
    (call as Extract<ReasoningStep, { type: 'tool_call' }>).toolCall.sensitiveFields = ['account'];
    content.observe(event(call));
    const [first, second] = spans();
    expect(first).toMatchObject({ name: 'step thinking', parent: RUN_SPAN, 'thoughtline.view': 'developer' });
    expect(String(first!['thoughtline.step.content'])).not.toContain(OPENAI_KEY);
    expect(second).toMatchObject({ 'thoughtline.step.kind': 'tool_call', 'gen_ai.tool.name': 'lookup' });
    expect(String(second!['thoughtline.step.content'])).not.toContain('ACCT-99887766');
    expect(String(second!['thoughtline.step.content'])).toContain('"q":"x"');
  });

  it("masks the tenant's sensitive fields from the policy, for that tenant's runs only", () => {
    const policy: VisibilityPolicyInit = {
      version: 1,
      tenants: { acme: { sensitiveFields: { lookup: ['account'] } } },
    };
    const acme = recorder(policy, 'acme');
    const other = recorder(policy, 'globex');
    for (const r of [acme, other]) r.content.observe(event(lookup(1, { account: 'ACCT-99887766' })));
    expect(String(acme.spans()[0]!['thoughtline.step.content'])).not.toContain('ACCT-99887766');
    expect(acme.spans()[0]!['thoughtline.tenant']).toBe('acme');
    expect(String(other.spans()[0]!['thoughtline.step.content'])).toContain('ACCT-99887766');
  });

  it('makes no span for a step the view leaves out, and shows a summary-level step as its summary', () => {
    const { content, spans } = recorder({
      version: 1,
      roles: { end_user: { steps: { tool_result: 'summary' } } },
      telemetry: { view: 'end_user' },
    });
    content.observe(event(step(1, { type: 'thinking', thought: 'hidden one', visibility: { level: 'hidden' } })));
    content.observe(event(lookup(2, { q: 'x' })));
    content.observe(
      event({ ...result(3, 2, { rows: ['secret row'] }), visibility: { level: 'full', summary: 'Found 1 row' } }),
    );
    expect(spans().map((s) => s.name)).toEqual(['step tool_call', 'step tool_result']);
    expect(spans()[1]!['thoughtline.step.content']).toBe('Found 1 row');
    expect(JSON.stringify(spans())).not.toContain('hidden one');
    expect(JSON.stringify(spans())).not.toContain('secret row');
  });

  it('withholds the content of a run whose earlier steps this worker did not see (taken over mid-way): its view lacks their sensitive fields', () => {
    const { content, spans } = recorder();
    content.observe(event(result(4, 3, { account: 'ACCT-99887766' })));
    content.observe(event(thought(5, 'The account is ACCT-99887766')));
    expect(spans()).toHaveLength(2);
    for (const s of spans()) {
      expect(s['thoughtline.step.content_withheld']).toBe(true);
      expect(s).not.toHaveProperty('thoughtline.step.content');
    }
    expect(JSON.stringify(spans())).not.toContain('ACCT-99887766');
  });

  it('records nothing for a run whose span it was never told, and forgets a run when it ends', () => {
    const { content, spans, runSpans } = recorder();
    content.observe({ ...event(thought(1, 'orphan')), runId: 'wf-unknown' });
    expect(spans()).toEqual([]);
    content.observe({ type: 'end', runId: RUN, chainStatus: 'completed', stepNumber: 0, outcome: 'completed' });
    expect(runSpans.get(RUN)).toBeUndefined();
    content.observe(event(thought(1, 'after the end')));
    expect(spans()).toEqual([]);
  });

  it('cuts a long text to 4 KiB and says so', () => {
    const { content, spans } = recorder();
    content.observe(event(thought(1, 'x'.repeat(10_000))));
    expect(spans()[0]!['thoughtline.step.content_truncated']).toBe(true);
    expect(Buffer.byteLength(String(spans()[0]!['thoughtline.step.content']))).toBeLessThanOrEqual(4096);
  });

  it("shows a sub-agent's steps only as far as its delegating agents' subChains allow", () => {
    const policy = (subChains: 'summary' | 'hidden'): VisibilityPolicyInit => ({
      version: 1,
      agents: { lead: { subChains } },
    });
    const hidden = recorder(policy('hidden'), undefined, ['lead']);
    hidden.content.observe(event(thought(1, 'child thought')));
    expect(hidden.spans()).toEqual([]);
    const summary = recorder(policy('summary'), undefined, ['lead']);
    summary.content.observe(event(thought(1, 'child thought')));
    expect(summary.spans()).toHaveLength(1);
    expect(summary.spans()[0]!['thoughtline.step.content_withheld']).toBe(true);
    expect(JSON.stringify(summary.spans())).not.toContain('child thought');
    // Under another agent, whose sub-chains the policy leaves in full, the same step shows.
    const other = recorder(policy('hidden'), undefined, ['someone_else']);
    other.content.observe(event(thought(1, 'child thought')));
    expect(other.spans()[0]!['thoughtline.step.content']).toBe('child thought');
  });
});
