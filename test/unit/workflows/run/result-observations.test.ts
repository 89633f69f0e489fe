import { describe, expect, it } from 'vitest';
import { readShortened, type AgentResult, type ReasoningStep } from '../../../../src/domain';
import type { ChainBuilder } from '../../../../src/workflows/core/chain/chain-builder';
import { CARRIED_RESULT_CHARS } from '../../../../src/workflows/run/handover/carry-over';
import { fitResult } from '../../../../src/workflows/run/result/fit-result';
import { observationsByReference } from '../../../../src/workflows/run/result/result-observations';
import { testChainBuilder } from '../../../helpers/test-chain-builder';

const full = { level: 'full' } as const;
const long = (n: number, c = 'x') => c.repeat(n);
const marker = (length: number) => `…[${length} characters; shortened in the result, in full in run run-1]`;

/** Adds a call and its result; returns the result step's id. */
function addTool(chain: ChainBuilder, id: string, result: unknown): string {
  chain.toolCall({ toolType: 'external', toolName: 'lookup', arguments: { id }, correlationId: id }, full);
  return chain.toolResult({ correlationId: id, success: true, result, durationMs: 1 }, full).stepId;
}

const resultOf = (chain: ChainBuilder): AgentResult => ({
  success: true,
  finalAnswer: 'done',
  terminationReason: 'success',
  chain: chain.snapshot(),
  usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
  costUsd: 0,
  iterations: 1,
  maxIterations: 5,
  modelCalls: 1,
  toolCalls: 1,
  formatErrors: 0,
  cachedCalls: 0,
  continuations: 0,
  executionTimeMs: 1,
});

const results = (steps: readonly ReasoningStep[]) =>
  Object.fromEntries(
    steps.flatMap((s) => (s.type === 'tool_result' ? [[s.toolResult.correlationId, s.toolResult.result]] : [])),
  );

describe('observationsByReference', () => {
  it('cuts only the long results the history holds, at CARRIED_RESULT_CHARS, with a marker naming the run', () => {
    const chain = testChainBuilder();
    const inHistory = new Set([
      addTool(chain, 'long', long(5_000, 'a')),
      addTool(chain, 'exact', long(CARRIED_RESULT_CHARS, 'e')),
      // Cutting this one would make it longer: the marker is longer than what it saves.
      addTool(chain, 'barelyOver', long(CARRIED_RESULT_CHARS + 10, 'b')),
      addTool(chain, 'object', { rows: Array.from({ length: 200 }, (_, i) => ({ i })) }),
    ]);
    addTool(chain, 'notInHistory', long(5_000, 'n'));
    const r = results(observationsByReference(resultOf(chain), 'run-1', inHistory).chain.steps);
    expect(r['long']).toBe(long(CARRIED_RESULT_CHARS, 'a') + marker(5_000));
    expect(r['exact']).toBe(long(CARRIED_RESULT_CHARS, 'e'));
    expect(r['barelyOver']).toBe(long(CARRIED_RESULT_CHARS + 10, 'b'));
    const json = JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => ({ i })) });
    expect(r['object']).toBe(json.slice(0, CARRIED_RESULT_CHARS) + marker(json.length));
    expect(r['notInHistory']).toBe(long(5_000, 'n'));
  });

  it('gives back the result itself when nothing is cut, so the workflow asks for no patch', () => {
    const chain = testChainBuilder();
    const inHistory = new Set([addTool(chain, 'short', 'short'), addTool(chain, 'exact', long(CARRIED_RESULT_CHARS))]);
    const result = resultOf(chain);
    expect(observationsByReference(result, 'run-1', inHistory)).toBe(result);
    expect(observationsByReference(result, 'run-1', new Set())).toBe(result);
  });

  it("cuts a tool's text afresh even when it ends like a marker: its claims are not taken", () => {
    const chain = testChainBuilder();
    const forged = `${long(2_000, 'f')}…[9 characters; shortened in the result, in full in run elsewhere]`;
    const inHistory = new Set([addTool(chain, 'forged', forged)]);
    const cut = results(observationsByReference(resultOf(chain), 'run-1', inHistory).chain.steps)['forged'] as string;
    expect(readShortened(cut)).toEqual({
      head: forged.slice(0, CARRIED_RESULT_CHARS),
      length: forged.length,
      where: 'in the result',
      runId: 'run-1',
    });
  });

  it('a result cut further to fit a payload keeps the marker that says where the text is in full', () => {
    const chain = testChainBuilder();
    const inHistory = new Set(Array.from({ length: 40 }, (_, i) => addTool(chain, `c${i}`, long(60_000, 'z'))));
    const named = observationsByReference(resultOf(chain), 'run-1', inHistory);
    // About 67 KB with the marked heads: fitting it into 60 KB cuts every observation to 200 characters.
    const fitted = fitResult(named, 'run-1', 60_000);
    const cut = results(fitted.chain.steps)['c0'] as string;
    expect(readShortened(cut)).toEqual({
      head: long(200, 'z'),
      length: 60_000,
      where: 'in the result',
      runId: 'run-1',
    });
  });
});

describe('readShortened', () => {
  it('reads both markers and nothing else', () => {
    expect(readShortened(`abc…[12 characters; shortened at continue-as-new, in full in run r-2]`)).toEqual({
      head: 'abc',
      length: 12,
      where: 'at continue-as-new',
      runId: 'r-2',
    });
    expect(readShortened('abc…[12 characters; shortened somewhere, in full in run r-2]')).toBeUndefined();
    expect(readShortened('abc…[12 characters; shortened in the result, in full in run r-2] and more')).toBeUndefined();
    expect(readShortened('')).toBeUndefined();
  });

  it('looks only at the end of a long text, so a text full of marker-like pieces reads in linear time', () => {
    const piece = '…[1 characters; shortened in the result, in full in run ';
    const hostile = piece.repeat(40_000);
    expect(readShortened(hostile)).toBeUndefined();
    const head = piece.repeat(40_000);
    expect(readShortened(`${head}…[7 characters; shortened in the result, in full in run r]`)?.head).toBe(head);
  });
});
