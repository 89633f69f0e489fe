import { describe, expect, it } from 'vitest';
import type { AuditModelCall } from '../../src/audit';
import { HIDDEN_RESULT, HIDDEN_THINKING, modelCallsInLens } from '../../src/audit/model-calls-in-lens';
import type { ReasoningChain, ReasoningStep } from '../../src/domain';
import { resolveViewLens, VisibilityPolicy } from '../../src/domain/visibility';

const base = (n: number, summary?: string) => ({
  stepId: `s${n}`,
  stepNumber: n,
  timestamp: new Date(0).toISOString(),
  iteration: 1,
  visibility: { level: 'full' as const, ...(summary ? { summary } : {}) },
});
const modelCall = (n: number, id: string): ReasoningStep[] => [
  {
    ...base(n),
    type: 'tool_call',
    model: 'm',
    toolCall: { toolType: 'llm', toolName: 'm', arguments: { toolChoice: 'auto' }, correlationId: id },
  },
  {
    ...base(n + 1),
    type: 'tool_result',
    model: 'm',
    toolResult: { correlationId: id, success: true, result: {}, durationMs: 0 },
  },
];
const BODY = 'the body of the secret file, long enough to quote';
const steps: ReasoningStep[] = [
  ...modelCall(1, 'm1'),
  {
    ...base(3),
    type: 'tool_call',
    toolCall: { toolType: 'file_system', toolName: 'read_file', arguments: { path: '/secret' }, correlationId: 'f1' },
  },
  {
    ...base(4, 'Read a file'),
    type: 'tool_result',
    toolResult: { correlationId: 'f1', success: true, result: BODY, durationMs: 1 },
  },
  ...modelCall(5, 'm2'),
];
const chain = { steps, status: 'completed' } as unknown as ReasoningChain;
const request = (messages: unknown[]) =>
  ({ provider: 'scripted', model: 'm', system: 's', tools: [], messages }) as never;
const useFile = { type: 'tool_use', id: 'f1', name: 'read_file', input: { path: '/secret' } };
const calls: AuditModelCall[] = [
  {
    stepNumber: 1,
    runId: 'r',
    request: request([{ role: 'user', content: [{ type: 'text', text: 'task' }] }]),
    reply: { content: [useFile], stopReason: 'tool_use', model: 'm' } as never,
  },
  {
    stepNumber: 5,
    runId: 'r',
    request: request([
      { role: 'assistant', content: [useFile] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'f1', content: BODY }] },
      { role: 'user', content: [{ type: 'text', text: `Observation: ${BODY}` }] },
    ]),
  },
];
const lensOf = (security: unknown) =>
  resolveViewLens(VisibilityPolicy.parse({ version: 1, security }), { view: 'auditor' });

describe('modelCallsInLens', () => {
  it("summarises a result the lens shows at summary, drops its call's arguments, and replaces it where text quotes it", () => {
    const { calls: shown, leftOut } = modelCallsInLens(
      calls,
      chain,
      lensOf({ toolTypes: { file_system: { call: 'summary', result: 'summary' } } }),
    );
    expect(leftOut).toBe(0);
    expect(shown[0]!.reply!.content).toEqual([{ ...useFile, input: {} }]);
    const [assistant, result, quoted] = shown[1]!.request.messages;
    expect(assistant!.content).toEqual([{ ...useFile, input: {} }]);
    expect(result!.content).toEqual([{ type: 'tool_result', toolUseId: 'f1', content: 'Read a file' }]);
    expect(quoted!.content).toEqual([{ type: 'text', text: `Observation: ${HIDDEN_RESULT}` }]);
    expect(JSON.stringify(shown)).not.toContain('/secret');
  });

  it("replaces the model's thinking and its text (the thought the chain records) where the lens hides thinking", () => {
    const thought = 'I think the secret file holds the key';
    const said = [
      { type: 'thinking', thinking: 'private reasoning', signature: 'sig' },
      { type: 'text', text: thought },
      useFile,
    ];
    const withText: AuditModelCall[] = [
      { ...calls[0]!, reply: { ...calls[0]!.reply!, content: said } as never },
      { ...calls[1]!, request: request([{ role: 'assistant', content: said }]) },
    ];
    const { calls: shown } = modelCallsInLens(withText, chain, lensOf({ steps: { thinking: 'summary' } }));
    const hidden = [
      { type: 'thinking', thinking: HIDDEN_THINKING, signature: 'sig' },
      { type: 'text', text: HIDDEN_THINKING },
      useFile,
    ];
    expect(shown[0]!.reply!.content).toEqual(hidden);
    expect(shown[1]!.request.messages[0]!.content).toEqual(hidden);
    expect(JSON.stringify(shown)).not.toContain(thought);
    // The user's own text is not the model's thought: it stays.
    expect(modelCallsInLens(calls, chain, lensOf({ steps: { thinking: 'hidden' } })).calls[0]!.request).toEqual(
      calls[0]!.request,
    );
  });

  it('leaves out the calls the lens does not show whole, and changes nothing without a lens', () => {
    expect(modelCallsInLens(calls, chain, lensOf({ steps: { model_call: 'summary' } }))).toEqual({
      calls: [],
      leftOut: 2,
    });
    expect(modelCallsInLens(calls, chain, undefined)).toEqual({ calls, leftOut: 0 });
  });
});
