import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { ModelProvider } from '../../../src/activities';
import { say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import type { AgentInputInit, ModelRequest } from '../../../src/domain';
import { defineTool, type ToolDefinition } from '../../../src/tools/define-tool';
import { llmCalls, toolCallSteps, toolResultOf, toolResults } from '../../helpers/chain-helpers';
import { scheduledActivities } from '../../helpers/history';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const base: AgentInputInit = {
  task: 'Gather observations',
  model: { provider: 'scripted', model: 'm', maxTokens: 100 },
};
const BIG = 5_000;
/** A text whose every position is recognisable, so a cut or a summary cannot pass for the original. */
const bigText = (n = BIG) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');

interface CallLog {
  calls: Array<{ tool: string; args: unknown }>;
}

/** Tools made per test, each logging its executions so side effects can be counted. */
function observationTools(log: CallLog = { calls: [] }) {
  const forecast = defineTool({
    name: 'forecast',
    description: 'Weather forecast (read-only)',
    input: z.object({ city: z.string(), filters: z.record(z.string(), z.number()) }),
    effects: 'none',
    retry: { maximumAttempts: 1 },
    execute: (args) => {
      log.calls.push({ tool: 'forecast', args });
      return { city: args.city, days: args.filters['days'] ?? 1, highs: [18, 21, 19] };
    },
  });
  const quote = defineTool({
    name: 'quote',
    description: 'A short quote (read-only, text result)',
    input: z.object({ topic: z.string(), lang: z.string() }),
    effects: 'none',
    retry: { maximumAttempts: 1 },
    execute: (args) => {
      log.calls.push({ tool: 'quote', args });
      return `Quote about ${args.topic} in ${args.lang}`;
    },
  });
  const send = defineTool({
    name: 'send_email',
    description: 'Sends an email (has side effects)',
    input: z.object({ to: z.string(), body: z.string() }),
    retry: { maximumAttempts: 1 },
    execute: (args) => {
      log.calls.push({ tool: 'send_email', args });
      return `sent to ${args.to}`;
    },
  });
  const big = defineTool({
    name: 'big_text',
    description: 'Returns 5,000 characters',
    input: z.object({}),
    retry: { maximumAttempts: 1 },
    execute: () => {
      log.calls.push({ tool: 'big_text', args: {} });
      return bigText();
    },
  });
  const smallLimit = defineTool({
    name: 'big_text_small_limit',
    description: 'Returns 5,000 characters, but keeps only 50',
    input: z.object({}),
    maxResultChars: 50,
    retry: { maximumAttempts: 1 },
    execute: () => bigText(),
  });
  const largeLimit = defineTool({
    name: 'big_text_large_limit',
    description: 'Returns 5,000 characters and would allow 3,000',
    input: z.object({}),
    maxResultChars: 3_000,
    retry: { maximumAttempts: 1 },
    execute: () => bigText(),
  });
  const record = defineTool({
    name: 'record',
    description: 'A small structured result',
    input: z.object({}),
    retry: { maximumAttempts: 1 },
    execute: () => ({ id: 7, tags: ['a', 'b'], nested: { ok: true, score: 0.5 } }),
  });
  const explode = defineTool({
    name: 'explode',
    description: 'Always throws',
    input: z.object({ target: z.string(), count: z.number() }),
    retry: { maximumAttempts: 1 },
    execute: (args) => {
      log.calls.push({ tool: 'explode', args });
      throw new Error('the disk is on fire');
    },
  });
  return { log, tools: [forecast, quote, send, big, smallLimit, largeLimit, record, explode] as ToolDefinition[] };
}

/** The tool_result blocks of the last user message of one request: what the model was told. */
function observationsIn(
  request: ModelRequest | undefined,
): Array<{ toolUseId: string; content: string; isError: boolean }> {
  const last = request?.messages[request.messages.length - 1];
  return (last?.content ?? []).flatMap((b) =>
    b.type === 'tool_result' ? [{ toolUseId: b.toolUseId, content: b.content, isError: b.isError }] : [],
  );
}

/** runScripted with this file's tools, whose executions land in `log`, and the `runTool` activities its history scheduled. */
async function runObserved(
  script: ScriptedTurn[],
  input: Partial<AgentInputInit> = {},
  wrap?: (m: ModelProvider) => ModelProvider,
) {
  const { tools, log } = observationTools();
  const { result, model } = await runScripted(env, { script, wrap, tools, input: { ...base, ...input } });
  const runTools = (await scheduledActivities(env.client, result.chain.chainId)).filter((a) => a.type === 'runTool');
  return { result, model, log, runTools };
}

describe('duplicate calls', () => {
  it('runs a repeated read-only call once, with swapped argument keys, and reuses its observation', async () => {
    const { result, model, log, runTools } = await runObserved([
      { content: [useTool('forecast', { city: 'Paris', filters: { days: 3, units: 1 } }, 'call_a')] },
      { content: [useTool('forecast', { filters: { units: 1, days: 3 }, city: 'Paris' }, 'call_b')] },
      { content: [say('It will be mild.')] },
    ]);
    expect(result).toMatchObject({ success: true, finalAnswer: 'It will be mild.', cachedCalls: 1, toolCalls: 1 });

    // One execution, one activity.
    expect(log.calls.filter((c) => c.tool === 'forecast')).toHaveLength(1);
    expect(runTools.map((a) => a.summary?.split(' ')[0])).toEqual(['forecast']);

    // The repeat is in the chain, marked as reused from the first call's tool_call step.
    const calls = toolCallSteps(result.chain.steps);
    expect(calls.map((s) => s.type === 'tool_call' && s.toolCall.correlationId)).toEqual(['call_a', 'call_b']);
    const first = toolResultOf(result.chain.steps, 'call_a');
    const second = toolResultOf(result.chain.steps, 'call_b');
    expect(first).toMatchObject({ success: true });
    expect(first?.cachedFrom).toBeUndefined();
    expect(second).toMatchObject({ success: true, cachedFrom: calls[0]!.stepId, durationMs: 0 });

    // The model was told the same thing both times, each under its own tool_use id.
    const [seenFirst] = observationsIn(model.calls[1]);
    const [seenSecond] = observationsIn(model.calls[2]);
    expect(seenFirst).toMatchObject({ toolUseId: 'call_a', isError: false });
    expect(seenSecond).toMatchObject({ toolUseId: 'call_b', isError: false });
    expect(seenSecond?.content).toBe(seenFirst?.content);
    expect(JSON.parse(seenFirst!.content)).toEqual({ city: 'Paris', days: 3, highs: [18, 21, 19] });
  });

  it('gives a reused text result the same result value in the chain', async () => {
    const { result, log } = await runObserved([
      { content: [useTool('quote', { topic: 'rain', lang: 'en' }, 'q1')] },
      { content: [useTool('quote', { lang: 'en', topic: 'rain' }, 'q2')] },
      { content: [say('done')] },
    ]);
    expect(log.calls).toHaveLength(1);
    expect(result.cachedCalls).toBe(1);
    const first = toolResultOf(result.chain.steps, 'q1');
    const second = toolResultOf(result.chain.steps, 'q2');
    expect(first?.result).toBe('Quote about rain in en');
    expect(second?.result).toBe(first?.result);
  });

  it('gives a reused structured result the same result value in the chain as the first call', async () => {
    const { result } = await runObserved([
      { content: [useTool('forecast', { city: 'Oslo', filters: { days: 2 } }, 'f1')] },
      { content: [useTool('forecast', { city: 'Oslo', filters: { days: 2 } }, 'f2')] },
      { content: [say('done')] },
    ]);
    expect(result.cachedCalls).toBe(1);
    const first = toolResultOf(result.chain.steps, 'f1');
    const second = toolResultOf(result.chain.steps, 'f2');
    expect(first?.result).toEqual({ city: 'Oslo', days: 2, highs: [18, 21, 19] });
    // The cached step should carry the same value (an object), not its JSON text.
    expect(second?.result).toEqual(first?.result);
  });

  it('reuses a read-only observation after other calls in between, and runs different arguments again', async () => {
    const { result, log, runTools } = await runObserved([
      { content: [useTool('quote', { topic: 'sun', lang: 'en' }, 'q1')] },
      { content: [useTool('quote', { topic: 'sun', lang: 'fr' }, 'q2')] },
      { content: [useTool('quote', { lang: 'en', topic: 'sun' }, 'q3')] },
      { content: [say('done')] },
    ]);
    expect(log.calls.map((c) => c.args)).toEqual([
      { topic: 'sun', lang: 'en' },
      { topic: 'sun', lang: 'fr' },
    ]);
    expect(runTools).toHaveLength(2);
    expect(result).toMatchObject({ cachedCalls: 1, toolCalls: 2 });
    expect(toolResultOf(result.chain.steps, 'q2')?.cachedFrom).toBeUndefined();
    const q1Call = toolCallSteps(result.chain.steps)[0]!;
    expect(toolResultOf(result.chain.steps, 'q3')).toMatchObject({
      cachedFrom: q1Call.stepId,
      result: 'Quote about sun in en',
    });
  });

  it('runs a repeated call of a tool that is not read-only every time', async () => {
    const { result, log, runTools } = await runObserved([
      { content: [useTool('send_email', { to: 'a@example.com', body: 'hi' }, 's1')] },
      { content: [useTool('send_email', { body: 'hi', to: 'a@example.com' }, 's2')] },
      { content: [say('sent twice')] },
    ]);
    expect(result).toMatchObject({ success: true, cachedCalls: 0, toolCalls: 2 });
    expect(log.calls.filter((c) => c.tool === 'send_email')).toHaveLength(2);
    expect(runTools.map((a) => a.summary?.split(' ')[0])).toEqual(['send_email', 'send_email']);
    expect(toolResults(result.chain.steps).map((r) => r.cachedFrom)).toEqual([undefined, undefined]);
  });
});

describe('size limits', () => {
  it('cuts a result over maxToolResultChars, with a visible marker, in the chain and the observation', async () => {
    const { result, model } = await runObserved(
      [{ content: [useTool('big_text', {}, 'b1')] }, { content: [say('ok')] }],
      { maxToolResultChars: 1_000 },
    );
    const cut = `${bigText().slice(0, 1_000)}\n…[truncated: showing 1000 of 5000 characters]`;
    expect(toolResultOf(result.chain.steps, 'b1')).toMatchObject({ success: true, truncated: true, result: cut });
    expect(toolResultOf(result.chain.steps, 'b1')?.summarised).toBeUndefined();
    expect(observationsIn(model.calls[1])).toEqual([{ toolUseId: 'b1', content: cut, isError: false }]);
  });

  it('lets maxToolResultTokens (4 characters each) win over a larger maxToolResultChars', async () => {
    const { result, model } = await runObserved(
      [{ content: [useTool('big_text', {}, 'b1')] }, { content: [say('ok')] }],
      {
        maxToolResultChars: 1_000,
        maxToolResultTokens: 100,
      },
    );
    const cut = `${bigText().slice(0, 400)}\n…[truncated: showing 400 of 5000 characters]`;
    expect(toolResultOf(result.chain.steps, 'b1')).toMatchObject({ truncated: true, result: cut });
    expect(observationsIn(model.calls[1])[0]?.content).toBe(cut);
  });

  it("lets a tool's own smaller maxResultChars win over the run's limit, but never raise it", async () => {
    const { result } = await runObserved(
      [
        { content: [useTool('big_text_small_limit', {}, 'small'), useTool('big_text_large_limit', {}, 'large')] },
        { content: [say('ok')] },
      ],
      { maxToolResultChars: 1_000 },
    );
    expect(toolResultOf(result.chain.steps, 'small')).toMatchObject({
      truncated: true,
      result: `${bigText().slice(0, 50)}\n…[truncated: showing 50 of 5000 characters]`,
    });
    expect(toolResultOf(result.chain.steps, 'large')).toMatchObject({
      truncated: true,
      result: `${bigText().slice(0, 1_000)}\n…[truncated: showing 1000 of 5000 characters]`,
    });
  });

  it('keeps a structured result that fits as an object in the chain, and sends it to the model as JSON', async () => {
    const { result, model } = await runObserved(
      [{ content: [useTool('record', {}, 'r1')] }, { content: [say('ok')] }],
      { maxToolResultChars: 1_000 },
    );
    const value = { id: 7, tags: ['a', 'b'], nested: { ok: true, score: 0.5 } };
    const step = toolResultOf(result.chain.steps, 'r1');
    expect(step?.result).toEqual(value);
    expect(step?.truncated).toBeUndefined();
    expect(JSON.parse(observationsIn(model.calls[1])[0]!.content)).toEqual(value);
  });

  it('cuts a structured result over the limit to its JSON text with the marker', async () => {
    const { result } = await runObserved([{ content: [useTool('record', {}, 'r1')] }, { content: [say('ok')] }], {
      maxToolResultChars: 20,
    });
    const json = JSON.stringify({ id: 7, tags: ['a', 'b'], nested: { ok: true, score: 0.5 } });
    expect(toolResultOf(result.chain.steps, 'r1')).toMatchObject({
      truncated: true,
      result: `${json.slice(0, 20)}\n…[truncated: showing 20 of ${json.length} characters]`,
    });
  });
});

describe('summarising large results', () => {
  const input: Partial<AgentInputInit> = { summariseLargeResults: true, maxToolResultChars: 1_000 };

  it('condenses an oversized result with a visible model call and hands the summary to the model', async () => {
    const summary = 'Summary: the alphabet, repeated 192 times and then some.';
    const { result, model, log } = await runObserved(
      [{ content: [useTool('big_text', {}, 'b1')] }, { content: [say(summary)] }, { content: [say('ok')] }],
      input,
    );
    expect(result).toMatchObject({ success: true, finalAnswer: 'ok', modelCalls: 3, toolCalls: 1 });
    expect(log.calls).toHaveLength(1);

    // An extra llm step pair, made while the tool step is open, with a note saying why.
    const llm = llmCalls(result.chain.steps);
    expect(llm).toHaveLength(3);
    expect(llm[1]?.arguments).toMatchObject({
      toolChoice: 'none',
      tools: [],
      note: expect.stringMatching(/summarising a 5000-character result of big_text/),
    });
    const llmResults = result.chain.steps.filter((s) => s.type === 'tool_result' && s.model !== undefined);
    expect(llmResults).toHaveLength(3);
    const types = result.chain.steps.map((s) =>
      s.type === 'tool_call' || s.type === 'tool_result' ? `${s.type}:${s.model ? 'llm' : 'tool'}` : s.type,
    );
    expect(types.slice(2, 6)).toEqual(['tool_call:tool', 'tool_call:llm', 'tool_result:llm', 'tool_result:tool']);

    // The summary call saw the task and the whole result, without tools.
    const summaryRequest = model.calls[1]!;
    expect(summaryRequest.toolChoice).toBe('none');
    expect(summaryRequest.tools).toEqual([]);
    expect(JSON.stringify(summaryRequest.messages)).toContain('Gather observations');
    expect(JSON.stringify(summaryRequest.messages)).toContain(bigText());

    // The chain keeps the summary as the result, flagged; the main model reads it as the observation.
    const step = toolResultOf(result.chain.steps, 'b1');
    expect(step).toMatchObject({ success: true, summarised: true, result: summary });
    expect(step?.truncated).toBeUndefined();
    expect(observationsIn(model.calls[2])).toEqual([{ toolUseId: 'b1', content: summary, isError: false }]);
  });

  it('does not summarise a result that fits', async () => {
    const { result } = await runObserved([{ content: [useTool('record', {}, 'r1')] }, { content: [say('ok')] }], input);
    expect(result.modelCalls).toBe(2);
    expect(toolResultOf(result.chain.steps, 'r1')?.result).toEqual({
      id: 7,
      tags: ['a', 'b'],
      nested: { ok: true, score: 0.5 },
    });
    expect(toolResultOf(result.chain.steps, 'r1')?.summarised).toBeUndefined();
  });

  it('falls back to the cut text, flagged truncated, when the summary is empty', async () => {
    const { result, model } = await runObserved(
      [{ content: [useTool('big_text', {}, 'b1')] }, { content: [say('   ')] }, { content: [say('ok')] }],
      input,
    );
    const cut = `${bigText().slice(0, 1_000)}\n…[truncated: showing 1000 of 5000 characters]`;
    expect(result.modelCalls).toBe(3);
    expect(llmCalls(result.chain.steps)[1]?.arguments['note']).toMatch(/summarising/);
    const step = toolResultOf(result.chain.steps, 'b1');
    expect(step).toMatchObject({ success: true, truncated: true, result: cut });
    expect(step?.summarised).toBeUndefined();
    expect(observationsIn(model.calls[2])[0]?.content).toBe(cut);
  });

  it('falls back to the cut text when the summary call fails for good, and the run goes on', async () => {
    const failingSummary = (m: ModelProvider): ModelProvider => ({
      name: 'scripted',
      complete: async (request, signal, hooks) => {
        if (request.system.startsWith('You condense tool output')) {
          throw ApplicationFailure.create({ type: 'ModelOverloaded', message: 'no capacity', nonRetryable: true });
        }
        return m.complete(request, signal, hooks);
      },
    });
    const { result, model } = await runObserved(
      [{ content: [useTool('big_text', {}, 'b1')] }, { content: [say('ok')] }],
      input,
      failingSummary,
    );
    const cut = `${bigText().slice(0, 1_000)}\n…[truncated: showing 1000 of 5000 characters]`;
    expect(result).toMatchObject({ success: true, finalAnswer: 'ok', modelCalls: 3 });
    const failed = result.chain.steps.find(
      (s) => s.type === 'tool_result' && s.model !== undefined && !s.toolResult.success,
    );
    expect(failed?.type === 'tool_result' && failed.toolResult.error).toContain('ModelOverloaded: no capacity');
    expect(toolResultOf(result.chain.steps, 'b1')).toMatchObject({ success: true, truncated: true, result: cut });
    expect(observationsIn(model.calls[1])[0]?.content).toBe(cut);
  });
});

describe('tool errors', () => {
  it("names the tool and its arguments in a throwing tool's observation", async () => {
    const { result, model, log } = await runObserved([
      { content: [useTool('explode', { target: 'db', count: 2 }, 'x1')] },
      { content: [say('gave up on it')] },
    ]);
    expect(log.calls).toHaveLength(1);
    const expected =
      'Tool "explode" failed with arguments {"target":"db","count":2}: ToolFailed: explode failed: the disk is on fire';
    expect(toolResultOf(result.chain.steps, 'x1')).toMatchObject({ success: false, result: null, error: expected });
    expect(observationsIn(model.calls[1])).toEqual([{ toolUseId: 'x1', content: expected, isError: true }]);
  });
});
