import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeMessagesServer, text, type FakeMessagesServer, type FakeRequestBody } from '../../src/testing';
import { createFakePromptCache, estimateTokens } from '../../src/testing/fake-prompt-cache';

const MARK = { type: 'ephemeral' };
type Block = Record<string, unknown>;

const textOf = (chars: number, seed = 'a'): Block => ({ type: 'text', text: seed.repeat(chars) });
const marked = (block: Block): Block => ({ ...block, cache_control: MARK });
const tokens = (...blocks: Block[]): number => blocks.reduce((sum, b) => sum + estimateTokens(b), 0);

const SYSTEM = textOf(400, 's');
const TASK = textOf(200, 't');
const turn = (n: number): { assistant: Block; result: Block } => ({
  assistant: { type: 'tool_use', id: `call-${n}`, name: 'search', input: { n } },
  result: { type: 'tool_result', tool_use_id: `call-${n}`, content: 'r'.repeat(300 + n) },
});

/** A request whose conversation has `turns` tool turns; breakpoints on the system, the anchor and the tail. */
function request(turns: number, options: { system?: Block; anchor?: boolean } = {}): FakeRequestBody {
  const messages: FakeRequestBody['messages'] = [{ role: 'user', content: [TASK] }];
  for (let n = 1; n <= turns; n++) {
    messages.push({ role: 'assistant', content: [turn(n).assistant] });
    messages.push({ role: 'user', content: [turn(n).result] });
  }
  const tail = messages.length - 1;
  const anchor = options.anchor === false ? -1 : tail - 2;
  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 100,
    system: [marked(options.system ?? SYSTEM)],
    messages: messages.map((m, i) =>
      i === tail || i === anchor ? { ...m, content: (m.content as Block[]).map(marked) } : m,
    ),
  };
}

/** Tokens of the request up to and including message `last`. */
function prefixTokens(turns: number, last: number): number {
  const blocks: Block[] = [SYSTEM, TASK];
  for (let n = 1; n <= turns; n++) blocks.push(turn(n).assistant, turn(n).result);
  return tokens(...blocks.slice(0, last + 2));
}

describe('the fake prompt cache', () => {
  it('estimates tokens as the offline model does: JSON length / 4, rounded up', () => {
    expect(estimateTokens({ type: 'text', text: 'abcd' })).toBe(Math.ceil('{"type":"text","text":"abcd"}'.length / 4));
  });

  it('writes the prefix up to the last breakpoint, then reads it on the next turn and writes only the new part', () => {
    const cache = createFakePromptCache({ minTokens: 10 });
    const first = cache.account(request(0));
    expect(first).toEqual({
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: prefixTokens(0, 0),
      input_tokens: 0,
    });
    const second = cache.account(request(1));
    expect(second).toEqual({
      cache_read_input_tokens: prefixTokens(1, 0),
      cache_creation_input_tokens: prefixTokens(1, 2) - prefixTokens(1, 0),
      input_tokens: 0,
    });
    const third = cache.account(request(2));
    expect(third.cache_read_input_tokens).toBe(prefixTokens(2, 2));
    expect(cache.totals()).toEqual({
      requests: 3,
      inputTokens: 0,
      cacheReadTokens: prefixTokens(1, 0) + prefixTokens(2, 2),
      cacheWriteTokens: prefixTokens(2, 4),
      outputTokens: 0,
    });
  });

  it('counts blocks after the last breakpoint as plain input', () => {
    const cache = createFakePromptCache({ minTokens: 10 });
    const body = request(1);
    body.messages.push({ role: 'assistant', content: [textOf(40, 'p')] });
    expect(cache.account(body).input_tokens).toBe(tokens(textOf(40, 'p')));
  });

  it('misses when the prefix changed: a new system prompt reads nothing, a changed message reads up to it', () => {
    const cache = createFakePromptCache({ minTokens: 10 });
    cache.account(request(2));
    expect(cache.account(request(3, { system: textOf(400, 'x') })).cache_read_input_tokens).toBe(0);
    const edited = request(3);
    (edited.messages[0] as { content: Block[] }).content = [marked(textOf(200, 'e'))];
    // The system prompt's own breakpoint was written by the first request; nothing after it matches.
    expect(cache.account(edited).cache_read_input_tokens).toBe(tokens(SYSTEM));
  });

  it('forgets a prefix after its TTL, and renews it on every read', () => {
    let clock = 0;
    const cache = createFakePromptCache({ minTokens: 10, now: () => clock });
    cache.account(request(0));
    clock = 4 * 60_000;
    expect(cache.account(request(0)).cache_read_input_tokens).toBe(prefixTokens(0, 0));
    clock = 8 * 60_000; // 4 minutes after the read that renewed it
    expect(cache.account(request(0)).cache_read_input_tokens).toBe(prefixTokens(0, 0));
    clock = 13 * 60_000 + 1; // just over 5 minutes later
    expect(cache.account(request(0))).toEqual({
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: prefixTokens(0, 0),
      input_tokens: 0,
    });
  });

  it('keeps a 1-hour breakpoint for an hour; the TTL is configurable', () => {
    let clock = 0;
    const cache = createFakePromptCache({ minTokens: 10, ttlMs: 1000, now: () => clock });
    const body = request(0);
    body.system = [{ ...SYSTEM, cache_control: { type: 'ephemeral', ttl: '1h' } }];
    cache.account(body);
    clock = 30 * 60_000;
    expect(cache.account(body).cache_read_input_tokens).toBe(tokens(SYSTEM));
  });

  it('writes nothing shorter than the minimum cacheable length (1,024 tokens by default)', () => {
    const short = createFakePromptCache();
    expect(tokens(SYSTEM, TASK)).toBeLessThan(1024);
    expect(short.account(request(0))).toEqual({
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      input_tokens: prefixTokens(0, 0),
    });
    expect(short.account(request(0)).cache_read_input_tokens).toBe(0);
    // Once the conversation passes the minimum, its prefix is written; the short system prefix still is not.
    const long = request(10);
    expect(prefixTokens(10, 18)).toBeGreaterThan(1024);
    expect(short.account(long)).toEqual({
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: prefixTokens(10, 20),
      input_tokens: 0,
    });
  });

  it('finds an earlier prefix only within 20 blocks of a breakpoint, unless a breakpoint sits on it', () => {
    const cache = createFakePromptCache({ minTokens: 10 });
    cache.account(request(1, { anchor: false }));
    // 10 more turns are 20 more blocks: the previous tail (message 2) is 20 blocks before the new tail.
    expect(cache.account(request(11, { anchor: false })).cache_read_input_tokens).toBe(prefixTokens(11, 2));
    const far = createFakePromptCache({ minTokens: 10 });
    far.account(request(1, { anchor: false }));
    // 11 more turns: out of reach of the tail, so only the system prompt is read...
    expect(far.account(request(12, { anchor: false })).cache_read_input_tokens).toBe(tokens(SYSTEM));
    // ...unless the request keeps a breakpoint where the previous one ended.
    const anchored = createFakePromptCache({ minTokens: 10 });
    anchored.account(request(1, { anchor: false }));
    const body = request(12, { anchor: false });
    body.messages[2] = { ...body.messages[2]!, content: (body.messages[2]!.content as Block[]).map(marked) };
    expect(anchored.account(body).cache_read_input_tokens).toBe(prefixTokens(12, 2));
  });

  it('caches automatically on the last block when the request sets a top-level cache_control', () => {
    const cache = createFakePromptCache({ minTokens: 10 });
    const auto = (turns: number): FakeRequestBody => {
      const body = request(turns);
      const plain = JSON.parse(JSON.stringify(body).replaceAll(',"cache_control":{"type":"ephemeral"}', ''));
      return { ...plain, cache_control: MARK };
    };
    expect(JSON.stringify(auto(1).messages)).not.toContain('cache_control');
    cache.account(auto(1));
    expect(cache.account(auto(2)).cache_read_input_tokens).toBe(prefixTokens(2, 2));
  });
});

describe('the fake Messages server with prompt caching', () => {
  let server: FakeMessagesServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('reports each reply’s cache usage over HTTP, estimates its output, and sums the counters', async () => {
    server = await startFakeMessagesServer({ promptCache: { minTokens: 10 }, script: [text('one'), text('two')] });
    const client = new Anthropic({ apiKey: 'test', baseURL: server.baseUrl, maxRetries: 0 });
    const first = await client.messages.create(request(0) as Anthropic.MessageCreateParamsNonStreaming);
    const second = await client.messages.create(request(1) as Anthropic.MessageCreateParamsNonStreaming);
    expect(first.usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: prefixTokens(0, 0) });
    expect(second.usage).toMatchObject({
      input_tokens: 0,
      cache_read_input_tokens: prefixTokens(1, 0),
      cache_creation_input_tokens: prefixTokens(1, 2) - prefixTokens(1, 0),
      output_tokens: estimateTokens([{ type: 'text', text: 'two' }]),
    });
    expect(server.cacheTotals()).toMatchObject({ requests: 2, cacheReadTokens: prefixTokens(1, 0) });
    server.verify();
  });

  it('keeps the scripted usage when caching is not simulated', async () => {
    server = await startFakeMessagesServer({ script: [text('one', { usage: { input_tokens: 7 } })] });
    const client = new Anthropic({ apiKey: 'test', baseURL: server.baseUrl, maxRetries: 0 });
    const reply = await client.messages.create(request(1) as Anthropic.MessageCreateParamsNonStreaming);
    expect(reply.usage).toMatchObject({ input_tokens: 7, output_tokens: 5, cache_read_input_tokens: 0 });
    expect(server.cacheTotals().requests).toBe(0);
  });

  it('answers 400, as the API does, to more than four breakpoints or one on a thinking or empty text block', async () => {
    server = await startFakeMessagesServer();
    const client = new Anthropic({ apiKey: 'test', baseURL: server.baseUrl, maxRetries: 0 });
    const five = request(3);
    five.tools = [{ name: 'search', input_schema: { type: 'object' }, cache_control: MARK }];
    five.messages[0] = { role: 'user', content: [marked(TASK)] };
    five.messages[1] = { role: 'assistant', content: [marked(turn(1).assistant)] };
    await expect(client.messages.create(five as Anthropic.MessageCreateParamsNonStreaming)).rejects.toThrow(
      /A maximum of 4 blocks with cache_control may be provided. Found 6/,
    );
    const thinking = request(0);
    thinking.messages.push({
      role: 'assistant',
      content: [marked({ type: 'thinking', thinking: 'x', signature: 's' })],
    });
    await expect(client.messages.create(thinking as Anthropic.MessageCreateParamsNonStreaming)).rejects.toThrow(
      /cannot be set on thinking blocks/,
    );
    const empty = request(0);
    empty.messages[0] = { role: 'user', content: [marked({ type: 'text', text: '' })] };
    await expect(client.messages.create(empty as Anthropic.MessageCreateParamsNonStreaming)).rejects.toThrow(
      /empty text blocks/,
    );
    expect(() => server?.verify()).toThrow(/cache_control/);
  });
});
