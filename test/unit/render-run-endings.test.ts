import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { WatchEvent } from '../../src/client/agent-client';
import { printFollowed } from '../../src/cli/reading/watch-printer';
import { renderStep, renderSteps, renderSummary } from '../../src/cli/render/render-step';
import { renderStatus } from '../../src/cli/render/render-status';
import { AgentStatus, zeroUsage, type AgentResult, type ReasoningStep } from '../../src/domain';
import { viewResult } from '../../src/domain/chain/chain-view';
import { runEnding } from '../../src/domain/run/run-ending';
import { statusFromResult } from '../../src/client/runs/status-from-result';
import { STEP_TIME, stepOf } from '../helpers/chain-helpers';

// eslint-disable-next-line no-control-regex
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

const KEY = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH';
const AUTH = 'ModelAuthentication: Could not resolve authentication method';

const modelCall = (n: number, id: string, model = 'claude-sonnet-4-6'): ReasoningStep =>
  stepOf(n, {
    type: 'tool_call',
    toolCall: { toolName: model, toolType: 'llm', arguments: { provider: 'anthropic' }, correlationId: id },
    model,
  });
const reply = (n: number, id: string, model: string): ReasoningStep =>
  stepOf(n, {
    type: 'tool_result',
    toolResult: { correlationId: id, success: true, result: { stopReason: 'end_turn', text: 'hi' }, durationMs: 4 },
    model,
    usage: { ...zeroUsage(), inputTokens: 10, outputTokens: 2 },
    costUsd: 0,
  });
const failedCall = (n: number, id: string, error: string): ReasoningStep =>
  stepOf(n, {
    type: 'tool_result',
    toolResult: { correlationId: id, success: false, result: null, error, durationMs: 0 },
    model: 'claude-sonnet-4-6',
  });

function resultOf(steps: ReasoningStep[], fields: Partial<AgentResult>): AgentResult {
  return {
    success: false,
    finalAnswer: '',
    terminationReason: 'error',
    chain: {
      schemaVersion: 1,
      chainId: 'wf-1',
      agentName: 'a',
      task: 't',
      startedAt: STEP_TIME,
      status: 'failed',
      steps,
    },
    usage: zeroUsage(),
    costUsd: 0,
    iterations: 1,
    maxIterations: 10,
    modelCalls: 1,
    toolCalls: 0,
    formatErrors: 0,
    cachedCalls: 0,
    continuations: 0,
    executionTimeMs: 12,
    ...fields,
  };
}

describe('a failed model call says why in the chain', () => {
  it('renders the failure type and message, not a bare "Model reply", with secrets redacted', () => {
    const line = plain(renderStep(failedCall(2, 'm1', `Model call failed: ${AUTH} (key ${KEY})`)));
    expect(line).toMatch(/^ {2}2 Model failed claude-sonnet-4-6 · 0 ms ModelAuthentication: /);
    expect(line).toContain(AUTH);
    expect(line).not.toContain('Model reply');
    expect(line).not.toContain(KEY);
  });

  it('a reply still renders as before', () => {
    expect(plain(renderStep(reply(2, 'm1', 'claude-sonnet-4-6')))).toBe(
      '  2 Model reply  claude-sonnet-4-6 · 10 in / 2 out · $0.0000 · 4 ms',
    );
  });
});

describe('a model call is titled with the model that answered it', () => {
  it('names the answering model and the one asked when they differ; the model asked while no reply is in', () => {
    const lines = renderSteps([
      modelCall(1, 'm1'),
      reply(2, 'm1', 'offline-model'),
      modelCall(3, 'm2'),
      reply(4, 'm2', 'claude-sonnet-4-6'),
      modelCall(5, 'm3'),
      failedCall(6, 'm3', `Model call failed: ${AUTH}`),
      modelCall(7, 'm4'),
    ]).map(plain);
    expect(lines[0]).toBe('  1 Model call   offline-model (iteration 1, asked for claude-sonnet-4-6)');
    expect(lines[2]).toBe('  3 Model call   claude-sonnet-4-6 (iteration 1)');
    // No model answered a failed call, and none yet the open one: the model asked.
    expect(lines[4]).toBe('  5 Model call   claude-sonnet-4-6 (iteration 1)');
    expect(lines[6]).toBe('  7 Model call   claude-sonnet-4-6 (iteration 1)');
    // Alone (live, before its reply), a call shows the model asked.
    expect(plain(renderStep(modelCall(1, 'm1')))).toBe('  1 Model call   claude-sonnet-4-6 (iteration 1)');
  });

  it('status rebuilt from a result names the model that last answered, as the live status does', () => {
    const result = resultOf([modelCall(1, 'm1'), reply(2, 'm1', 'offline-model')], {
      success: true,
      terminationReason: 'success',
      finalAnswer: 'ok',
    });
    expect(statusFromResult(result).model).toBe('offline-model');
  });
});

describe('run and watch end with how the run ended and why, from runEnding', () => {
  it('an error run: the ending line and the error whole, redacted', () => {
    const error = `Model call failed: ${AUTH} (key ${KEY})`;
    const result = resultOf([modelCall(1, 'm1'), failedCall(2, 'm1', error)], { error });
    const text = plain(renderSummary(viewResult(result, 'developer')));
    const lines = text.split('\n');
    expect(lines[0]).toBe('Result: error after 1 iteration, 1 model call, 0 tool calls');
    expect(lines[1]).toMatch(/^Ended: {2}failed · error: Model call failed: ModelAuthentication: Could not resolve/);
    expect(lines.at(-1)).toMatch(/^Error: {2}Model call failed: ModelAuthentication: Could not resolve/);
    expect(text).not.toContain(KEY);
  });

  it('a cancelled run reads cancelled, a success completed', () => {
    const cancelled = resultOf([], { terminationReason: 'cancelled', finalAnswer: 'So far: nothing.' });
    expect(plain(renderSummary(cancelled)).split('\n')[1]).toBe('Ended:  cancelled · cancelled');
    const done = resultOf([], { success: true, terminationReason: 'success', finalAnswer: 'alpha is 50.' });
    expect(plain(renderSummary(done)).split('\n')[1]).toBe('Ended:  completed · success');
  });
});

describe('status of an ended run', () => {
  const status = (result: AgentResult) => AgentStatus.parse(statusFromResult(result));

  it('says failed (not completed), why, and the error', () => {
    const error = `Model call failed: ${AUTH}`;
    const result = resultOf([modelCall(1, 'm1'), failedCall(2, 'm1', error)], { error });
    const lines = renderStatus('wf-1', status(result), 'developer', runEnding({ result })).split('\n');
    expect(lines[0]).toBe('Run wf-1: failed');
    expect(lines[1]).toBe(`Ended:       failed · error: ${error}`);
    expect(lines).toContain(`Error:       ${error}`);
  });

  it('a failure shows its reason as the answer; a multi-line answer sits under its title', () => {
    const failure = resultOf([], { terminationReason: 'failure', finalAnswer: 'No key.\nAsk ops.' });
    const lines = renderStatus('wf-1', status(failure), 'developer', runEnding({ result: failure })).split('\n');
    expect(lines[0]).toBe('Run wf-1: failed');
    expect(lines[1]).toBe('Ended:       failed · failure: No key.');
    const at = lines.indexOf('Answer (failure): No key.');
    expect(at).toBeGreaterThan(1);
    expect(lines[at + 1]).toBe('             Ask ops.');
  });

  it("a workflow that ended without a result reads Temporal's word", () => {
    const result = resultOf([], { success: true, terminationReason: 'success', finalAnswer: 'x' });
    const text = renderStatus('wf-1', status(result), 'developer', runEnding({ execution: 'terminated' }));
    expect(text.split('\n').slice(0, 2)).toEqual(['Run wf-1: terminated', 'Ended:       terminated · terminated']);
  });

  it('a running run (no ending) reads as before', () => {
    const result = resultOf([], { success: true, terminationReason: 'success', finalAnswer: 'x' });
    const text = renderStatus('wf-1', { ...status(result), status: 'thinking' });
    expect(text.split('\n')[0]).toBe('Run wf-1: thinking');
    expect(text).not.toContain('Ended:');
  });
});

describe('watch and run print a model call under the model that answered it', () => {
  async function printed(events: WatchEvent[]): Promise<string[]> {
    async function* follow(): AsyncGenerator<WatchEvent, AgentResult> {
      yield* events;
      return resultOf([], { success: true, terminationReason: 'success', finalAnswer: 'x' });
    }
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => (text += d.toString()));
    await printFollowed(follow(), out);
    return plain(text).split('\n').filter(Boolean);
  }
  const step = (s: ReasoningStep): WatchEvent => ({ type: 'step', step: s });

  it('holds the call line for its reply, and keeps the order of the steps', async () => {
    const lines = await printed([
      step(modelCall(1, 'm1')),
      step(reply(2, 'm1', 'offline-model')),
      step(modelCall(3, 'm2')),
      step(failedCall(4, 'm2', `Model call failed: ${AUTH}`)),
      step(modelCall(5, 'm3')),
    ]);
    expect(lines.map((l) => l.trim().split(/\s+/).slice(0, 4).join(' '))).toEqual([
      '1 Model call offline-model',
      '2 Model reply offline-model',
      '3 Model call claude-sonnet-4-6',
      '4 Model failed claude-sonnet-4-6',
      // The run ended before its reply: printed at the end, with the model asked.
      '5 Model call claude-sonnet-4-6',
    ]);
    expect(lines[0]).toContain('asked for claude-sonnet-4-6');
  });

  it('text streaming before the reply prints the call at once, with the model asked', async () => {
    const lines = await printed([
      step(modelCall(1, 'm1')),
      { type: 'live', activityId: '1', attempt: 1, kind: 'text', text: 'Thinking aloud' },
      step(reply(2, 'm1', 'offline-model')),
    ]);
    expect(lines[0]).toBe('  1 Model call   claude-sonnet-4-6 (iteration 1)');
    expect(lines[1]).toContain('Thinking aloud');
    expect(lines[2]).toMatch(/^ {2}2 Model reply {2}offline-model/);
  });
});
