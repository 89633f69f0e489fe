import { describe, expect, it } from 'vitest';
import { renderStep, renderSteps } from '../../src/cli/render/render-step';
import type { ReasoningChain, ReasoningStep } from '../../src/domain';
import { viewChain } from '../../src/domain/chain/chain-view';
import { markdownCode, markdownText } from '../../src/domain/text/markdown-escape';
import { renderChainMarkdown } from '../../src/domain/chain/render-chain-markdown';
import { STEP_TIME, stepOf } from '../helpers/chain-helpers';

const chainOf = (steps: ReasoningStep[]): ReasoningChain => ({
  schemaVersion: 1,
  chainId: 'wf-1',
  agentName: 'a',
  task: 'task',
  startedAt: STEP_TIME,
  status: 'thinking',
  steps,
});
// eslint-disable-next-line no-control-regex
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

/** Undoes CommonMark's backslash escapes: what a renderer shows of escaped text. */
const unescape = (md: string): string => md.replace(/\\([!-/:-@[-`{-~])/g, '$1');

const APPROVE_THOUGHT =
  'Waiting for approval of write_file (call toolu_1): always. Decide with: thoughtline approve agent-1 toolu_1  (or reject … --reason)';

describe('terminal steps show retries and cached results (issue 15, item 9)', () => {
  it('a retried call shows its attempts and the time of all of them', () => {
    const line = plain(
      renderStep(
        stepOf(3, {
          type: 'tool_result',
          toolResult: { correlationId: 'c1', success: true, result: 'ok', durationMs: 3_100, attempts: 3 },
        }),
      ),
    );
    expect(line).toContain('(3 attempts, 3.1 s)');
    const failed = plain(
      renderStep(
        stepOf(3, {
          type: 'tool_result',
          toolResult: {
            correlationId: 'c1',
            success: false,
            result: null,
            error: 'down',
            durationMs: 650,
            attempts: 2,
          },
        }),
      ),
    );
    expect(failed).toContain('down (2 attempts, 650 ms)');
  });

  it('a first-attempt call shows no note, a reused observation says it is cached', () => {
    expect(
      plain(
        renderStep(
          stepOf(3, {
            type: 'tool_result',
            toolResult: { correlationId: 'c1', success: true, result: 'ok', durationMs: 12, attempts: 1 },
          }),
        ),
      ),
    ).not.toContain('(');
    const cached = plain(
      renderStep(
        stepOf(5, {
          type: 'tool_result',
          toolResult: { correlationId: 'c2', success: true, result: 'ok', durationMs: 0, cachedFrom: 's3' },
        }),
      ),
    );
    expect(cached).toContain('(cached)');
  });
});

describe('the end_user view, as docs/security.md describes it', () => {
  const steps = [
    stepOf(1, {
      type: 'tool_call',
      model: 'claude-x',
      toolCall: { toolType: 'llm', toolName: 'claude-x', arguments: {}, correlationId: 'm1' },
    }),
    stepOf(2, {
      type: 'tool_result',
      model: 'claude-x',
      usage: { inputTokens: 120, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0.0123,
      toolResult: { correlationId: 'm1', success: true, result: 'reply', durationMs: 900 },
    }),
    stepOf(3, { type: 'thinking', thought: APPROVE_THOUGHT }),
  ];

  it('shows model calls without tokens or cost, and a wait for approval without the operator command', () => {
    const view = viewChain(chainOf(steps), 'end_user');
    expect(view.steps[1]).not.toHaveProperty('usage');
    expect(view.steps[1]).not.toHaveProperty('costUsd');
    expect(view.steps[2]).toMatchObject({ type: 'thinking', thought: 'Waiting for a person to approve write_file.' });
    const printed = plain(renderSteps(view.steps).join('\n'));
    expect(printed).not.toMatch(/\$\d|tokens| in \/ /);
    expect(printed).not.toContain('thoughtline approve');
  });

  it('leaves the developer and auditor views as they were', () => {
    for (const role of ['developer', 'auditor'] as const) {
      const view = viewChain(chainOf(steps), role);
      expect(view.steps[1]).toMatchObject({ usage: { inputTokens: 120 }, costUsd: 0.0123 });
      expect(view.steps[2]).toMatchObject({ thought: APPROVE_THOUGHT });
    }
  });
});

describe('Current Details markdown copies exactly', () => {
  const args = { cmd: 'rm --force "x.txt"', quote: "it's", tick: 'a`b', star: '*not bold*' };
  const md = renderChainMarkdown(
    chainOf([
      stepOf(1, { type: 'thinking', thought: APPROVE_THOUGHT }),
      stepOf(2, {
        type: 'tool_call',
        toolCall: { toolType: 'external', toolName: 'shell', arguments: args, correlationId: 'c1' },
      }),
      stepOf(3, {
        type: 'tool_result',
        toolResult: {
          correlationId: 'c1',
          success: true,
          result: { out: '"done" -- ok' },
          durationMs: 5,
          cachedFrom: 's0',
        },
      }),
    ]),
  );
  const lines = md.split('\n');

  it('puts arguments and results in code spans fenced past their backticks', () => {
    expect(lines.find((l) => l.startsWith('2.'))).toContain(`\`\`${JSON.stringify(args)}\`\``);
    expect(lines.find((l) => l.startsWith('3.'))).toContain(`\`${JSON.stringify({ out: '"done" -- ok' })}\``);
    expect(lines.find((l) => l.startsWith('3.'))).toContain('(cached, 5 ms)');
  });

  it('escapes free text so no quote turns curly and no -- becomes a dash', () => {
    const thought = lines.find((l) => l.startsWith('1.'))!;
    const text = thought.slice('1. **Thought** '.length);
    expect(unescape(text)).toBe(APPROVE_THOUGHT);
    // Every quote and dash of the text is escaped.
    expect(text).not.toMatch(/(?<!\\)["'-]/);
    expect(text).toContain('\\-\\-reason');
  });

  it('code spans and escapes hold for awkward text', () => {
    expect(markdownCode('`starts')).toBe('`` `starts ``');
    expect(markdownCode('a ``` b')).toBe('````a ``` b````');
    expect(markdownCode('line1\n# line2')).toBe('`line1 # line2`');
    const hostile = 'say "hi" -- then ... [x](y) *b* _i_ `c` <b> # h';
    expect(unescape(markdownText(hostile))).toBe(hostile);
    expect(markdownText(hostile)).not.toMatch(/(?<!\\)[-"*_`[\]<#]/);
  });
});

// Asked for claude-sonnet-4-6, answered by the offline model (no key): the reply names who answered.
const call = stepOf(1, {
  type: 'tool_call',
  model: 'claude-sonnet-4-6',
  toolCall: { toolType: 'llm', toolName: 'claude-sonnet-4-6', arguments: {}, correlationId: 'm1' },
});
const reply = stepOf(2, {
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
    const chain = chainOf([call, reply]);
    const md = renderChainMarkdown(chain);
    expect(md).toContain('**Model call** `claude-sonnet-4-6`');
    expect(md).toContain('**Model reply** `offline-model` 487→57 tokens');
  });
});
