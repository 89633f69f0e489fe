import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentResult, ModelReply, ModelRequest } from '../../src/domain';
import { EvalId } from '../../src/domain/evaluation/eval-case';
import { DatasetError, loadDataset, MAX_DATASET_BYTES } from '../../src/eval/dataset';
import {
  appendCases,
  caseFromRun,
  caseIdOfRun,
  CaseFromRunError,
  CaseFromRunRefusal,
  MAX_CASE_RECORDING_BYTES,
  type RunMaterial,
} from '../../src/eval/from-run';

const KEY = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-case-from-run-unit-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const request = (assistantMessages: number, side = false): ModelRequest =>
  ({
    model: 'claude-sonnet-4-6',
    system: '',
    tools: side ? [] : [{ name: 'lookup_order' }],
    toolChoice: side ? 'none' : 'auto',
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'task' }] },
      ...Array.from({ length: assistantMessages }, () => ({ role: 'assistant', content: [] })),
    ],
  }) as unknown as ModelRequest;

const reply = (content: unknown[]): ModelReply =>
  ({
    content,
    stopReason: 'tool_use',
    model: 'claude-sonnet-4-6',
    usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0.001,
    durationMs: 3,
  }) as ModelReply;

/** A run that looked up an order (its result holding a key) and answered. */
function material(
  over: Omit<Partial<RunMaterial>, 'result'> & { result?: Partial<AgentResult>; payload?: string } = {},
): RunMaterial {
  const { payload = 'shipped', result, ...rest } = over;
  const steps = [
    {
      stepNumber: 1,
      type: 'tool_call',
      toolCall: { toolType: 'llm', toolName: 'm', arguments: {}, correlationId: 'l1' },
    },
    {
      stepNumber: 2,
      type: 'tool_call',
      toolCall: { toolType: 'tool', toolName: 'lookup_order', arguments: { order: 'A-1' }, correlationId: 'c1' },
    },
    {
      stepNumber: 3,
      type: 'tool_call',
      toolCall: { toolType: 'tool', toolName: 'finish', arguments: { result: 'done' }, correlationId: 'c2' },
    },
  ];
  return {
    workflowId: 'agent-1234',
    input: { task: `Look up order A-1 (key ${KEY})`, strategy: 'native', systemPrompt: 'not carried' },
    result: {
      success: true,
      terminationReason: 'success',
      finalAnswer: '  Order A-1 is shipped.  ',
      maxIterations: 10,
      chain: { steps },
      ...result,
    } as unknown as AgentResult,
    modelCalls: [
      { request: request(0, true), reply: reply([{ type: 'text', text: 'plan' }]) },
      {
        request: request(0),
        reply: reply([{ type: 'tool_use', id: 't1', name: 'lookup_order', input: { order: 'A-1' } }]),
      },
      {
        request: request(1),
        reply: reply([{ type: 'tool_use', id: 't2', name: 'finish', input: { result: 'done' } }]),
      },
    ],
    toolExecutions: [
      {
        input: { toolName: 'lookup_order', arguments: { order: 'A-1' } },
        result: { result: { status: payload, apiKey: KEY }, truncated: false, durationMs: 1 },
      },
    ],
    scores: [],
    ...rest,
  };
}

const refusalOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (err) {
    if (err instanceof CaseFromRunError) return err.refusal;
    throw err;
  }
  return undefined;
};

describe('caseIdOfRun', () => {
  it('is run-<id> for a plain id, and a stable hashed id for one that does not fit', () => {
    expect(caseIdOfRun('agent-1234')).toBe('run-agent-1234');
    const odd = caseIdOfRun('eval-x/case/variant/0');
    const long = caseIdOfRun(`agent-${'a'.repeat(80)}`);
    expect(odd).toMatch(/^run-eval-x-case-variant-0-[0-9a-f]{12}$/);
    expect(caseIdOfRun('eval-x/case/variant/0')).toBe(odd);
    expect(caseIdOfRun('eval-x:case:variant:0')).not.toBe(odd);
    for (const id of [odd, long]) expect(EvalId.safeParse(id).success, id).toBe(true);
    expect(long.length).toBeLessThanOrEqual(64);
  });
});

describe('caseFromRun', () => {
  it('expects the ending, the answer and the calls, and records replies and results with secrets redacted', () => {
    const made = caseFromRun(material());
    expect(made.case).toEqual({
      id: 'run-agent-1234',
      task: 'Look up order A-1 (key [REDACTED])',
      expect: {
        terminationReason: 'success',
        answer: { match: 'exact', value: 'Order A-1 is shipped.', ignoreCase: false },
        tools: { mode: 'exact', calls: [{ tool: 'lookup_order', arguments: { order: { equals: 'A-1' } } }] },
        minCoherence: 0,
      },
      limits: { maxIterations: 10 },
      input: { strategy: 'native', tools: ['lookup_order'] },
      replay: 'recordings/run-agent-1234.jsonl',
      tags: ['from-run'],
    });
    const lines = made.recording
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.kind ?? 'reply', l.side ?? false])).toEqual([
      ['reply', true],
      ['reply', false],
      ['reply', false],
      ['tool', false],
    ]);
    expect(lines[3]).toEqual({
      kind: 'tool',
      workflowId: 'agent-1234',
      tool: 'lookup_order',
      arguments: { order: 'A-1' },
      result: { status: 'shipped', apiKey: '[REDACTED]' },
    });
    expect(made.recording).not.toContain(KEY);
  });

  it('a failed tool call is recorded as its final error; a run that did not succeed expects no answer', () => {
    const made = caseFromRun(
      material({
        result: { success: false, terminationReason: 'failure', finalAnswer: 'gave up' },
        toolExecutions: [{ input: { toolName: 'lookup_order', arguments: { order: 'A-1' } }, error: 'boom' }],
      }),
    );
    expect(made.case.expect.answer).toBeUndefined();
    expect(made.case.expect.terminationReason).toBe('failure');
    expect(JSON.parse(made.recording.trim().split('\n')[3]!)).toMatchObject({ error: 'boom', final: true });
  });

  it('offers and records a worker tool that calls a model (ask_model), which the trajectory leaves out as the scorer does', () => {
    const asked = material();
    (asked.result.chain.steps as unknown[]).push({
      stepNumber: 4,
      type: 'tool_call',
      toolCall: { toolType: 'llm', toolName: 'ask_model', arguments: { prompt: 'check' }, correlationId: 'c3' },
    });
    (asked.toolExecutions as unknown[]).push({
      input: { toolName: 'ask_model', arguments: { prompt: 'check' } },
      result: { result: 'looks right', truncated: false, durationMs: 1 },
    });
    const made = caseFromRun(asked);
    expect(made.case.input).toEqual({ strategy: 'native', tools: ['ask_model', 'lookup_order'] });
    expect(made.case.expect.tools?.calls.map((c) => c.tool)).toEqual(['lookup_order']);
    expect(made.recording).toContain('"tool":"ask_model"');
  });

  it('refuses, by code, what a replay cannot reproduce or a person said was wrong', () => {
    const bad = { name: 'accepted', value: 0, by: 'alice', at: '2026-11-27T00:00:00Z' };
    expect(refusalOf(() => caseFromRun(material({ scores: [bad] })))).toBe(CaseFromRunRefusal.MarkedBad);
    expect(refusalOf(() => caseFromRun(material({ scores: [{ ...bad, value: 1 }] })))).toBeUndefined();
    expect(refusalOf(() => caseFromRun(material({ result: { terminationReason: 'cancelled' } })))).toBe(
      CaseFromRunRefusal.NotReplayable,
    );
    const person = {
      stepNumber: 9,
      type: 'thinking',
      thought: 'use the fast one',
      fromPerson: { kind: 'steer', by: 'bo' },
    };
    const steered = material();
    (steered.result.chain.steps as unknown[]).push(person);
    expect(refusalOf(() => caseFromRun(steered))).toBe(CaseFromRunRefusal.NeedsOthers);
    expect(
      refusalOf(() =>
        caseFromRun(material({ result: { chain: { steps: [], approvals: [{ callId: 'c1' }] } } as never })),
      ),
    ).toBe(CaseFromRunRefusal.NeedsOthers);
    const failedCall = material();
    (failedCall.modelCalls as unknown as Array<{ reply?: unknown; error?: string }>)[2] = {
      ...failedCall.modelCalls[2]!,
      reply: undefined,
      error: 'overloaded',
    };
    expect(refusalOf(() => caseFromRun(failedCall))).toBe(CaseFromRunRefusal.Incomplete);
    expect(refusalOf(() => caseFromRun(material({ input: { task: 'x'.repeat(16 * 1024 + 1) } })))).toBe(
      CaseFromRunRefusal.TooLarge,
    );
  });

  it("carries the run's guardrails and leaves their steps out of the calls; refuses a run whose answer an output guardrail withheld", () => {
    const guardStep = (n: number, stage: string, id: string, success: boolean) => [
      {
        stepNumber: n,
        type: 'tool_call',
        toolCall: { toolType: 'guardrail', toolName: `guardrails:${stage}`, arguments: {}, correlationId: id },
      },
      { stepNumber: n + 1, type: 'tool_result', toolResult: { correlationId: id, success, durationMs: 1 } },
    ];
    const base = material();
    const guarded = (outputPassed: boolean) =>
      material({
        input: { ...base.input, guardrails: ['pii'] },
        result: {
          chain: {
            steps: [
              ...guardStep(10, 'input', 'g1', true),
              ...base.result.chain.steps,
              ...guardStep(20, 'output', 'g2', outputPassed),
            ],
          } as unknown as AgentResult['chain'],
        },
      });
    const made = caseFromRun(guarded(true));
    expect(made.case.input).toMatchObject({ guardrails: ['pii'] });
    expect(made.case.expect.tools?.calls.map((c) => c.tool)).toEqual(['lookup_order']);
    expect(refusalOf(() => caseFromRun(guarded(false)))).toBe(CaseFromRunRefusal.HeldByGuardrail);
    // An input check that blocked is replayable: the same guardrail blocks the same task again.
    expect(
      refusalOf(() =>
        caseFromRun(material({ result: { chain: { steps: guardStep(1, 'input', 'g3', false) } as never } })),
      ),
    ).toBeUndefined();
  });

  it('takes a recording of exactly MAX_CASE_RECORDING_BYTES and refuses one byte more', () => {
    const base = Buffer.byteLength(caseFromRun(material({ payload: '' })).recording);
    const atLimit = caseFromRun(material({ payload: 'x'.repeat(MAX_CASE_RECORDING_BYTES - base) }));
    expect(Buffer.byteLength(atLimit.recording)).toBe(MAX_CASE_RECORDING_BYTES);
    expect(refusalOf(() => caseFromRun(material({ payload: 'x'.repeat(MAX_CASE_RECORDING_BYTES - base + 1) })))).toBe(
      CaseFromRunRefusal.TooLarge,
    );
  });
});

describe('appendCases', () => {
  it('writes the recording beside the dataset and appends a line the loader reads; a second time is refused, nothing written', () => {
    const dataset = path.join(dir, 'prod.jsonl');
    fs.writeFileSync(dataset, '{"id":"hand-written","task":"t"}');
    expect(appendCases(dataset, [caseFromRun(material())])).toEqual(['run-agent-1234']);
    const loaded = loadDataset(dataset);
    expect(loaded.cases.map((c) => c.id)).toEqual(['hand-written', 'run-agent-1234']);
    expect(loaded.replays).toEqual([
      { id: 'run-agent-1234', recordingFile: path.join(dir, 'recordings/run-agent-1234.jsonl') },
    ]);
    const before = fs.readFileSync(dataset, 'utf8');
    expect(refusalOf(() => appendCases(dataset, [caseFromRun(material())]))).toBe(CaseFromRunRefusal.Duplicate);
    expect(fs.readFileSync(dataset, 'utf8')).toBe(before);
  });

  it('refuses a YAML dataset; takes a dataset the case brings to exactly MAX_DATASET_BYTES, refuses one byte more', () => {
    expect(() => appendCases(path.join(dir, 'cases.yaml'), [caseFromRun(material())])).toThrow(DatasetError);
    // A named pipe is refused at once, never read (it would block).
    const pipe = path.join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [pipe]);
    expect(() => appendCases(pipe, [caseFromRun(material())])).toThrow(/not a regular file/);
    const other = (id: string) => {
      const made = caseFromRun(material({ workflowId: id }));
      return { ...made, recordingPath: `recordings/${made.case.id}.jsonl` };
    };
    const lineBytes = Buffer.byteLength(`${JSON.stringify(other('agent-big-1').case)}\n`);
    const head = '{"id":"a","task":"t"}\n';
    // A comment line pads the file: the loader skips it, the limit counts it.
    const padded = (extra: number) =>
      `${head}#${'x'.repeat(MAX_DATASET_BYTES - lineBytes - head.length - 2 + extra)}\n`;
    const atLimit = path.join(dir, 'at-limit.jsonl');
    fs.writeFileSync(atLimit, padded(0));
    expect(appendCases(atLimit, [other('agent-big-1')])).toEqual(['run-agent-big-1']);
    expect(fs.statSync(atLimit).size).toBe(MAX_DATASET_BYTES);
    const over = path.join(dir, 'over.jsonl');
    fs.writeFileSync(over, padded(1));
    expect(refusalOf(() => appendCases(over, [other('agent-big-2')]))).toBe(CaseFromRunRefusal.TooLarge);
    expect(fs.existsSync(path.join(dir, 'recordings/run-agent-big-2.jsonl'))).toBe(false);
  });
});
