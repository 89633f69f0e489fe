import { describe, expect, it } from 'vitest';
import { renderStep } from '../../../src/cli/render/render-step';
import type { ReasoningStep } from '../../../src/domain';

const base = { stepId: 's5', stepNumber: 5, timestamp: '2026-11-26T00:00:00.000Z', iteration: 1 } as const;
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

describe('renderStep shows a cache hit', () => {
  const observation: ReasoningStep = {
    ...base,
    type: 'tool_result',
    visibility: { level: 'full' },
    toolResult: { correlationId: 'c1', success: true, result: 'definition of temporal', durationMs: 1 },
  };

  it('after a tool result reused from another run, and nothing on one that ran', () => {
    const hit = { kind: 'tool' as const, fromRun: 'run-7', storedAt: '2026-11-26T00:00:00.000Z', ageMs: 180_000 };
    expect(plain(renderStep({ ...observation, cacheHit: hit }))).toContain(
      'Observation  definition of temporal (cached from run run-7, 3 min old)',
    );
    expect(plain(renderStep(observation))).not.toContain('cached');
  });

  it('after a model reply reused from another run', () => {
    const reply: ReasoningStep = {
      ...observation,
      model: 'scripted-model',
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0,
      toolResult: { ...observation.toolResult, result: { stopReason: 'end_turn', text: 'hi', toolCalls: [] } },
      cacheHit: { kind: 'model', fromRun: 'run-8', storedAt: '2026-11-26T00:00:00.000Z', ageMs: 5_000 },
    } as ReasoningStep;
    expect(plain(renderStep(reply))).toMatch(/Model reply .*\(cached from run run-8, 5 s old\)$/);
  });
});
