import { describe, expect, it } from 'vitest';
import { renderStep } from '../../src/cli/render/render-step';
import type { ReasoningChain, ReasoningStep } from '../../src/shared';
import { renderChainMarkdown } from '../../src/shared/render-chain-markdown';

const at = '2026-01-01T00:00:00.000Z';
const step = (n: number, body: Record<string, unknown>): ReasoningStep =>
  ({
    stepId: `s${n}`,
    stepNumber: n,
    timestamp: at,
    iteration: 1,
    visibility: { level: 'full' },
    ...body,
  }) as ReasoningStep;
// eslint-disable-next-line no-control-regex
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

// Asked for claude-sonnet-4-6, answered by the offline model (no key): the reply names who answered.
const call = step(1, {
  type: 'tool_call',
  model: 'claude-sonnet-4-6',
  toolCall: { toolType: 'llm', toolName: 'claude-sonnet-4-6', arguments: {}, correlationId: 'm1' },
});
const reply = step(2, {
  type: 'tool_result',
  model: 'offline-model',
  usage: { inputTokens: 487, outputTokens: 57, cacheReadTokens: 0, cacheWriteTokens: 0 },
  costUsd: 0,
  toolResult: {
    correlationId: 'm1',
    success: true,
    result: { stopReason: 'tool_use', text: '', toolCalls: [] },
    durationMs: 3,
  },
});

describe('a model reply names the model that answered, not only the one asked', () => {
  it('in the terminal', () => {
    expect(plain(renderStep(call))).toContain('Model call   claude-sonnet-4-6');
    expect(plain(renderStep(reply))).toContain('Model reply  offline-model · 487 in / 57 out · $0.0000 · 3 ms');
  });

  it('in the markdown of the Web UI and the export', () => {
    const chain: ReasoningChain = {
      schemaVersion: 1,
      chainId: 'wf-1',
      agentName: 'a',
      task: 'task',
      startedAt: at,
      status: 'completed',
      steps: [call, reply],
    };
    const md = renderChainMarkdown(chain);
    expect(md).toContain('**Model call** `claude-sonnet-4-6`');
    expect(md).toContain('**Model reply** `offline-model` 487→57 tokens');
  });
});
