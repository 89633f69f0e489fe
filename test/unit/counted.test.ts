import { describe, expect, it } from 'vitest';
import { counted } from '../../src/domain/text/counted';
import { renderSummary } from '../../src/cli/render/render-step';
import { renderDashboard } from '../../src/cli/dashboard/render-dashboard';
import { startDashboard } from '../../src/cli/dashboard/dashboard-state';

describe('counted', () => {
  it('says one in the singular and every other count in the plural', () => {
    expect(counted(1, 'tool call')).toBe('1 tool call');
    expect(counted(0, 'answer')).toBe('0 answers');
    expect(counted(2, 'step')).toBe('2 steps');
    expect(counted(1, 'chain query', { many: 'chain queries' })).toBe('1 chain query');
    expect(counted(3, 'chain query', { many: 'chain queries' })).toBe('3 chain queries');
    expect(counted(1234, 'token', { shown: '1,234' })).toBe('1,234 tokens');
  });

  it('is what the run\'s summary and the dashboard say: no "1 tool calls", no "1 steps"', () => {
    const summary = renderSummary({
      success: true,
      terminationReason: 'success',
      finalAnswer: 'ok',
      iterations: 1,
      modelCalls: 1,
      toolCalls: 1,
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0,
      executionTimeMs: 1,
      chain: { steps: [] },
    } as never);
    expect(summary).toContain('after 1 iteration, 1 model call, 1 tool call');
    const box = renderDashboard(
      { ...startDashboard('agent-1', 'goal', 0), steps: 1 },
      { width: 100, height: 30, color: false, nowMs: 0 },
    ).join('\n');
    expect(box).toContain('· 1 step ');
    expect(box).not.toMatch(/\b1 (steps|tool calls)\b/);
  });
});
