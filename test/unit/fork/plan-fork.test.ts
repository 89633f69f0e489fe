import { describe, expect, it } from 'vitest';
import { chainAsOf } from '../../../src/client/fork/chain-as-of';
import { ForkError } from '../../../src/client/fork/fork-error';
import { forkHazards, planFork, type ForkOriginal } from '../../../src/client/fork/plan-fork';
import { AgentInput, ForkStart, ToolSpec, type ModelMessage, type ReasoningChain } from '../../../src/domain';
import { MAX_CARRIED_BYTES } from '../../../src/domain/run/payload-size';
import { sampleChain } from '../../helpers/sample-report';

const text = (role: 'user' | 'assistant', t: string): ModelMessage =>
  ({ role, content: [{ type: 'text', text: t }] }) as ModelMessage;

function original(chain: ReasoningChain = sampleChain(), extra: Partial<AgentInput> = {}): ForkOriginal {
  const llm = chain.steps.filter((s) => s.type === 'tool_call' && s.toolCall.toolType === 'llm');
  return {
    workflowId: 'wf-1',
    input: AgentInput.parse({ task: 'task', caller: { id: 'alice', roles: ['analyst'], tenant: 'acme' }, ...extra }),
    steps: chain.steps,
    modelCalls: llm.map((s, i) => ({
      stepNumber: s.stepNumber,
      request: {
        provider: 'anthropic',
        model: 'm',
        system: 's',
        messages: Array.from({ length: 2 * i + 1 }, (_, n) => text(n % 2 ? 'assistant' : 'user', `m${n}`)),
        tools: [],
        toolChoice: 'auto',
        maxTokens: 100,
      },
    })),
    tools: [
      ToolSpec.parse({
        name: 'read_notes',
        description: 'r',
        inputSchema: {},
        type: 'external',
        readOnly: true,
        timeoutMs: 1000,
        retry: { maximumAttempts: 1, initialIntervalMs: 1, backoffCoefficient: 1 },
        visibility: 'full',
      }),
      ToolSpec.parse({
        name: 'write_file',
        description: 'w',
        inputSchema: {},
        type: 'external',
        approval: 'always',
        timeoutMs: 1000,
        retry: { maximumAttempts: 1, initialIntervalMs: 1, backoffCoefficient: 1 },
        visibility: 'full',
      }),
    ],
  };
}

describe('planFork', () => {
  it('keeps the steps before the next model call, its conversation and the ledger then, and changes only what was asked', () => {
    const planned = planFork(
      original(),
      4,
      { model: { model: 'other' }, steer: 'Skip the file.' },
      { id: 'bob', roles: ['dev'] },
    );
    expect(planned.start.from).toEqual({ workflowId: 'wf-1', atStep: 4, keptThroughStep: 4 });
    expect(planned.start.steps.map((s) => s.stepNumber)).toEqual([1, 2, 3, 4]);
    expect(planned.start.messages).toHaveLength(3);
    expect(planned.start.ledger).toEqual({
      usage: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0.001,
      iterations: 1,
      modelCalls: 1,
      toolCalls: 1,
    });
    expect(planned.start.steering).toEqual([{ text: 'Skip the file.', by: 'bob' }]);
    expect(planned.start.change).toBe('model other; the instruction "Skip the file."');
    expect(planned.input).toMatchObject({
      task: 'task',
      caller: { id: 'bob', roles: ['dev'] },
      model: { model: 'other' },
    });
    expect(planned.input).not.toHaveProperty('continued');
  });

  it('forking inside an iteration keeps the rest of it, up to the next model call', () => {
    expect(planFork(original(), 2, {}, undefined).start.from).toEqual({
      workflowId: 'wf-1',
      atStep: 2,
      keptThroughStep: 4,
    });
    expect(planFork(original(), 0, {}, undefined).start.from.keptThroughStep).toBe(0);
  });

  it('refuses a step that does not exist, and one no model call follows, with a ForkError', () => {
    expect(() => planFork(original(), 13, {}, undefined)).toThrow(ForkError);
    expect(() => planFork(original(), 9, {}, undefined)).toThrow(/made no model call after step 9/);
    expect(() => planFork(original(), 2.5, {}, undefined)).toThrow(ForkError);
  });

  it('refuses a starting state over the payload bound, and takes one just under it', () => {
    const big = original();
    const room = MAX_CARRIED_BYTES - JSON.stringify(planFork(big, 4, {}, undefined).start).length;
    const withText = (chars: number): ForkOriginal => ({
      ...big,
      modelCalls: big.modelCalls.map((c, i) =>
        i === 1
          ? { ...c, request: { ...c.request, messages: [...c.request.messages, text('user', 'x'.repeat(chars))] } }
          : c,
      ),
    });
    const overhead = JSON.stringify(text('user', '')).length + 1;
    expect(JSON.stringify(planFork(withText(room - overhead), 4, {}, undefined).start).length).toBe(MAX_CARRIED_BYTES);
    expect(() => planFork(withText(room - overhead + 1), 4, {}, undefined)).toThrow(/at most 1572864 bytes/);
    expect(ForkStart.safeParse(planFork(withText(room - overhead), 4, {}, undefined).start).success).toBe(true);
  });
});

describe('forkHazards', () => {
  it('lists calls that are not positively read-only, with the policy they keep; skips model calls, control calls and read-only tools', () => {
    expect(forkHazards(original(), 0)).toEqual([
      {
        stepNumber: 7,
        toolName: 'write_file',
        toolType: 'external',
        approval: 'always',
        because: 'not declared read-only',
      },
    ]);
    expect(forkHazards({ ...original(), tools: undefined }, 0).map((h) => [h.toolName, h.because])).toEqual([
      ['read_notes', "not in the original's described tools, so not known to be read-only"],
      ['write_file', "not in the original's described tools, so not known to be read-only"],
    ]);
    expect(forkHazards(original(sampleChain(), { approvals: { write_file: 'never' } }), 0)[0]?.approval).toBe('never');
    expect(forkHazards(original(), 8)).toEqual([]);
  });
});

describe('chainAsOf', () => {
  it('gives the chain, ledger and approvals as they stood: later decisions read as pending', () => {
    const chain = sampleChain();
    const write = chain.steps.find((s) => s.stepNumber === 7)!;
    const approval = {
      callId: 't2',
      stepId: write.stepId,
      runId: 'r',
      toolName: 'write_file',
      arguments: { path: 'report.txt' },
      argumentsHash: 'sha256:x',
      reason: 'always',
      approverRoles: [],
      requestedAt: write.timestamp,
      expiresAt: '2026-02-01T00:00:00.000Z',
      status: 'approved' as const,
      decidedBy: { id: 'olga', roles: [] },
      decidedAt: chain.steps[7]!.timestamp,
    };
    const withApproval = { ...chain, approvals: [approval] };
    const atWrite = chainAsOf(withApproval, 7);
    expect(atWrite.chain.steps).toHaveLength(7);
    expect(atWrite.chain.approvals).toEqual(
      [{ ...approval, status: 'pending', decidedBy: undefined, decidedAt: undefined }].map(
        ({ decidedBy: _b, decidedAt: _a, ...a }) => a,
      ),
    );
    expect(atWrite.chain.status).toBe('tool_calling');
    expect(atWrite.chain.completedAt).toBeUndefined();
    expect(atWrite.ledger).toMatchObject({ modelCalls: 2, toolCalls: 2, costUsd: 0.002, iteration: 2 });
    expect(chainAsOf(withApproval, 8).chain.approvals?.[0]?.status).toBe('approved');
    expect(chainAsOf(withApproval, 2).chain.approvals).toBeUndefined();
    expect(chainAsOf(withApproval, 12).chain).toMatchObject({ status: 'completed', completedAt: chain.completedAt });
  });
});
