import { describe, expect, it } from 'vitest';
import { viewerModule } from './viewer-module';

type Step = Record<string, unknown> & { stepNumber: number };
interface Bar {
  kind: string;
  label: string;
  stepNumber: number;
  startMs: number;
  endMs: number;
  open: boolean;
  failed: boolean;
}
interface TraceModule {
  iterationOf(step: unknown): number;
  modelCallOf(step: unknown, toolTypes: Map<string, string>): string | undefined;
  toolTypesOf(steps: Step[]): Map<string, string>;
  modelCallFacts(call: unknown, reply: unknown): Record<string, unknown>;
  iterationFacts(steps: Step[]): Record<string, unknown>;
  iterationBars(steps: Step[], approvals?: unknown[], now?: number): { spanMs: number; bars: Bar[]; omitted: number };
  MAX_ITERATION_BARS: number;
  answerSegments(conclusion: string, claims: unknown[]): Array<{ text: string; standing?: string }>;
}
const trace = () => viewerModule<TraceModule>('iteration-trace.js');

const at = (ms: number) => new Date(Date.UTC(2026, 10, 29, 3, 0, 0, ms)).toISOString();
/** One iteration of the demo's shape: a model call and its reply, a thought, a tool call and its result. */
const demoIteration = (): Step[] => [
  {
    stepNumber: 1,
    iteration: 1,
    type: 'tool_call',
    timestamp: at(0),
    stepId: 's1',
    toolCall: { toolType: 'llm', toolName: 'claude-sonnet-4-6', correlationId: 'm1' },
  },
  {
    stepNumber: 2,
    iteration: 1,
    type: 'tool_result',
    timestamp: at(120),
    stepId: 's2',
    model: 'offline-model',
    usage: { inputTokens: 450, outputTokens: 57, cacheReadTokens: 300 },
    costUsd: 0.002,
    toolResult: { correlationId: 'm1', success: true, durationMs: 100, result: { stopReason: 'tool_use' } },
  },
  { stepNumber: 3, iteration: 1, type: 'thinking', timestamp: at(120), stepId: 's3', thought: 'I need the weather.' },
  {
    stepNumber: 4,
    iteration: 1,
    type: 'tool_call',
    timestamp: at(120),
    stepId: 's4',
    toolCall: { toolType: 'external', toolName: 'get_weather', correlationId: 't1' },
  },
  {
    stepNumber: 5,
    iteration: 1,
    type: 'tool_result',
    timestamp: at(150),
    stepId: 's5',
    toolResult: { correlationId: 't1', success: false, durationMs: 20, error: 'down' },
  },
];

describe('a run read as a trace (viewer/iteration-trace.js)', () => {
  it('puts each step in its iteration, steps recorded before the first in iteration 0', async () => {
    const { iterationOf } = await trace();
    expect(iterationOf({ iteration: 3 })).toBe(3);
    expect(iterationOf({ iteration: 0 })).toBe(0);
    expect(iterationOf({})).toBe(0);
    expect(iterationOf({ iteration: 'two' })).toBe(0);
  });

  it('folds a model call with its reply, a reply whose call is on an earlier page too, never a tool result', async () => {
    const { modelCallOf, toolTypesOf } = await trace();
    const steps = demoIteration();
    const types = toolTypesOf(steps);
    expect(steps.map((s) => modelCallOf(s, types))).toEqual(['m1', 'm1', undefined, undefined, undefined]);
    // The call not loaded yet: the reply is known by the model that answered and its structured reply.
    expect(modelCallOf(steps[1], new Map())).toBe('m1');
    // A tool's text result that names a model (ask_model) is the tool's, not a model call's.
    const asked = { type: 'tool_result', model: 'claude-haiku-4-5', toolResult: { correlationId: 'x', result: 'yes' } };
    expect(modelCallOf(asked, new Map())).toBeUndefined();
  });

  it("says what a model call's fold says: the model asked and the one that answered, tokens, cost, latency", async () => {
    const { modelCallFacts } = await trace();
    const [call, reply] = demoIteration();
    expect(modelCallFacts(call, reply)).toEqual({
      asked: 'claude-sonnet-4-6',
      answeredBy: 'offline-model',
      usage: { inputTokens: 450, outputTokens: 57, cacheReadTokens: 300 },
      costUsd: 0.002,
      latencyMs: 100,
      failed: false,
      open: false,
    });
    expect(modelCallFacts(call, undefined)).toMatchObject({ answeredBy: undefined, open: true });
  });

  it("sums an iteration's tokens and cost, names its models and tools, and says when a call failed", async () => {
    const { iterationFacts } = await trace();
    expect(iterationFacts(demoIteration())).toEqual({
      models: ['offline-model'],
      usage: { inputTokens: 450, outputTokens: 57, cacheReadTokens: 300 },
      costUsd: 0.002,
      durationMs: 150,
      tools: ['get_weather'],
      failed: true,
    });
  });

  it("draws each call from when its work began to its result, a person's wait apart, and an open call to now", async () => {
    const { iterationBars } = await trace();
    const steps = demoIteration();
    const approval = {
      stepId: 's4',
      toolName: 'get_weather',
      requestedAt: at(120),
      decidedAt: at(130),
      status: 'approved',
    };
    const { spanMs, bars, omitted } = iterationBars(steps, [approval, { stepId: 'elsewhere', requestedAt: at(0) }]);
    expect(omitted).toBe(0);
    expect(spanMs).toBe(150);
    expect(bars.map((b) => [b.kind, b.label, b.startMs, b.endMs, b.open, b.failed])).toEqual([
      // The reply landed at 120 after 100 ms of the provider's time: the bar starts at 20.
      ['model', 'offline-model', 20, 120, false, false],
      ['approval', 'approve get_weather', 120, 130, false, false],
      ['tool', 'get_weather', 130, 150, false, true],
    ]);
    // Still running: the open call is drawn to now.
    const running = iterationBars(steps.slice(0, 4), [], Date.parse(at(400)));
    expect(running.bars.at(-1)).toMatchObject({ kind: 'tool', startMs: 120, endMs: 400, open: true });
    expect(running.spanMs).toBe(400);
  });

  it('draws at most MAX_ITERATION_BARS bars and counts the rest', async () => {
    const { iterationBars, MAX_ITERATION_BARS } = await trace();
    const calls = (n: number): Step[] =>
      Array.from({ length: n }, (_, i) => ({
        stepNumber: i + 1,
        iteration: 1,
        type: 'tool_call',
        timestamp: at(i),
        stepId: `c${i}`,
        toolCall: { toolType: 'external', toolName: 'count', correlationId: `c${i}` },
      }));
    expect(iterationBars(calls(MAX_ITERATION_BARS))).toMatchObject({ omitted: 0 });
    expect(iterationBars(calls(MAX_ITERATION_BARS)).bars).toHaveLength(MAX_ITERATION_BARS);
    const over = iterationBars(calls(MAX_ITERATION_BARS + 1));
    expect(over.bars).toHaveLength(MAX_ITERATION_BARS);
    expect(over.omitted).toBe(1);
  });

  it('cuts the answer at its claims, each marked how it stands, and leaves a claim whose text is not where it says', async () => {
    const { answerSegments } = await trace();
    const text = 'Tokyo: 21°C. Tokyo is the warmest, by 12 degrees.';
    const claims = [
      { text: '21°C', at: 7, supportedBy: 's5' },
      { text: 'Tokyo is the warmest', at: 13, unchecked: true },
      { text: '12', at: 38 },
      // Not at its offset (a view rewrote the answer), and one overlapping the claim before it.
      { text: 'Berlin', at: 0, supportedBy: 's9' },
      { text: 'is the', at: 19, given: 'task' },
    ];
    expect(answerSegments(text, claims)).toEqual([
      { text: 'Tokyo: ' },
      { text: '21°C', claim: claims[0], standing: 'ok' },
      { text: '. ' },
      { text: 'Tokyo is the warmest', claim: claims[1], standing: 'unchecked' },
      { text: ', by ' },
      { text: '12', claim: claims[2], standing: 'unsupported' },
      { text: ' degrees.' },
    ]);
    expect(answerSegments(text, [{ text: 'Tokyo', at: 0, contradictedBy: 's2' }])[0]).toMatchObject({
      standing: 'contradicted',
    });
    expect(answerSegments(text, undefined as unknown as unknown[])).toEqual([{ text }]);
  });
});
