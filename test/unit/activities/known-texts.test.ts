import { describe, expect, it } from 'vitest';
import { ConversationCache } from '../../../src/activities/conversation/conversation-cache';
import { resolveConversation } from '../../../src/activities/conversation/resolve-conversation';
import { KnownTexts } from '../../../src/activities/conversation/known-texts';
import {
  contextText,
  MIN_KNOWN_TEXT_CHARS,
  modelCallsFromInputs,
  textHash,
  UnknownTextError,
  type ModelCallInput,
  type ModelMessage,
} from '../../../src/domain';
import { SentConversations } from '../../../src/workflows/core/state/sent-conversations';

const user = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const useTool = (id: string): ModelMessage => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name: 'page', input: {} }],
});
const results = (...texts: Array<[string, string]>): ModelMessage => ({
  role: 'user',
  content: texts.map(([id, content]) => ({ type: 'tool_result' as const, toolUseId: id, content, isError: false })),
});
const call = {
  provider: 'scripted' as const,
  model: 'm',
  system: 's',
  tools: [],
  toolChoice: 'auto' as const,
  maxTokens: 10,
};
const run = { workflowId: 'wf', runId: 'r1' };

const long = (tag: string) => `${tag}:${'x'.repeat(MIN_KNOWN_TEXT_CHARS)}`;
const short = 'a short result';

/** Two calls: the second adds a turn of two tool results, one long (a tool activity returned it) and one short. */
function twoCalls() {
  const sent = new SentConversations();
  const first = [user('task'), useTool('t1')];
  const second = [...first, results(['t1', long('one')], ['t2', short]), useTool('t3')];
  const inputs: ModelCallInput[] = [{ ...call, conversation: sent.reference(first) }];
  sent.returnedByWorker(long('one'));
  sent.returnedByWorker(short);
  inputs.push({ ...call, conversation: sent.reference(second) });
  return { inputs, messages: [first, second], sent };
}

const conversationOf = (input: ModelCallInput) => ('conversation' in input ? input.conversation : undefined)!;

describe('a model call names the tool results a tool activity returned, instead of carrying them', () => {
  it('leaves the long text out and says where it goes; a short one is sent as it is', () => {
    const { inputs } = twoCalls();
    const ref = conversationOf(inputs[1]!);
    expect(ref.known).toEqual([{ message: 2, block: 0, hash: textHash(long('one')) }]);
    expect(JSON.stringify(ref)).not.toContain(long('one'));
    expect(JSON.stringify(ref)).toContain(short);
    // The whole hash is the real conversation's: the worker checks what it rebuilds against it.
    expect(ref.count).toBe(4);
  });

  it('names only texts the workflow was told a worker returned', () => {
    const sent = new SentConversations();
    const ref = sent.reference([user('task'), useTool('t1'), results(['t1', long('not from a tool activity')])]);
    expect(ref.known).toBeUndefined();
    expect(JSON.stringify(ref)).toContain(long('not from a tool activity'));
  });

  it('the worker that ran the tool rebuilds the call whole from the texts it kept', async () => {
    const { inputs, messages } = twoCalls();
    const texts = new KnownTexts(1_000_000);
    texts.remember(long('one'));
    const source = { cache: new ConversationCache(1_000_000), texts };
    expect(await resolveConversation(inputs[0]!, run, source)).toEqual({ ...call, messages: messages[0] });
    expect(await resolveConversation(inputs[1]!, run, source)).toEqual({ ...call, messages: messages[1] });
  });

  it('a worker without the text asks the run for the whole conversation, and gets the same request', async () => {
    const { inputs, messages, sent } = twoCalls();
    const asked: string[] = [];
    const source = {
      cache: new ConversationCache(1_000_000),
      texts: new KnownTexts(1_000_000),
      ask: async (_w: string, _r: string, hash: string) => (asked.push(hash), sent.find(hash)),
    };
    await resolveConversation(inputs[0]!, run, source);
    expect(await resolveConversation(inputs[1]!, run, source)).toEqual({ ...call, messages: messages[1] });
    expect(asked).toEqual([conversationOf(inputs[1]!).hash]);
    // With nobody to ask, the attempt fails retryably rather than send an empty result to the model.
    const alone = { cache: new ConversationCache(1_000_000), texts: new KnownTexts(1_000_000) };
    await resolveConversation(inputs[0]!, run, alone);
    await expect(resolveConversation(inputs[1]!, run, alone)).rejects.toMatchObject({
      type: 'ConversationUnavailable',
      nonRetryable: false,
    });
  });

  it('a kept text that does not match its hash is never used', async () => {
    const { inputs } = twoCalls();
    const hash = conversationOf(inputs[1]!).known![0]!.hash;
    const lying = { get: (h: string) => (h === hash ? long('two') : undefined) } as unknown as KnownTexts;
    const source = { cache: new ConversationCache(1_000_000), texts: lying };
    await resolveConversation(inputs[0]!, run, source);
    await expect(resolveConversation(inputs[1]!, run, source)).rejects.toMatchObject({
      type: 'ConversationUnavailable',
    });
  });

  it("an auditor rebuilds every prompt from the history: the calls and the tools' results", () => {
    const { inputs, messages } = twoCalls();
    const fromHistory = new Map([[textHash(long('one')), long('one')]]);
    expect(modelCallsFromInputs(inputs, (h) => fromHistory.get(h)).map((r) => r.messages)).toEqual(messages);
    expect(() => modelCallsFromInputs(inputs)).toThrow(UnknownTextError);
  });
});

describe('KnownTexts', () => {
  it('keeps at most its characters, the oldest going first, and never a short text', () => {
    const texts = new KnownTexts(3 * MIN_KNOWN_TEXT_CHARS + 10);
    for (const tag of ['a', 'b', 'c', 'd']) texts.remember(long(tag));
    expect(texts.get(textHash(long('a')))).toBeUndefined();
    expect(texts.get(textHash(long('d')))).toBe(long('d'));
    expect(texts.size).toBeLessThanOrEqual(3 * MIN_KNOWN_TEXT_CHARS + 10);
    texts.remember(short);
    expect(texts.get(textHash(short))).toBeUndefined();
  });
});

describe('SentConversations.returnedByWorker', () => {
  it('holds a bounded number of texts: the oldest are forgotten and then sent whole', () => {
    const sent = new SentConversations();
    for (let i = 0; i < 300; i++) sent.returnedByWorker(long(`t${i}`));
    const ref = sent.reference([user('task'), useTool('a'), results(['a', long('t0')], ['b', long('t299')])]);
    expect(ref.known?.map((k) => k.block)).toEqual([1]);
  });
});

describe('a model call names the system prompt and tools it sent before (context)', () => {
  const tools = [
    {
      name: 'page',
      description: 'Returns a page',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
    },
  ];
  const system = `You read pages. ${'Be careful. '.repeat(30)}`;
  const request = { ...call, system, tools };

  /** Two calls as the workflow sends them: the first with its context, the second naming it. */
  function namedCalls() {
    const sent = new SentConversations();
    const first = sent.context(request)!;
    const second = sent.context(request)!;
    const { system: _s, tools: _t, ...rest } = request;
    const inputs: ModelCallInput[] = [
      { ...request, conversation: sent.reference([user('task')]), context: first.hash },
      { ...rest, conversation: sent.reference([user('task'), useTool('t1')]), context: second.hash },
    ];
    return { sent, first, second, inputs };
  }

  it('sends it the first time in a run, then only its hash; a short one is never named', () => {
    const { first, second, inputs } = namedCalls();
    expect(first).toEqual({ hash: textHash(contextText(request)), sentBefore: false });
    expect(second).toEqual({ hash: first.hash, sentBefore: true });
    expect(JSON.stringify(inputs[1])).not.toContain('Be careful');
    expect(new SentConversations().context({ system: 'short', tools: [] })).toBeUndefined();
  });

  it('the worker rebuilds the call with what it kept from the first, or asks the run, or fails retryably', async () => {
    const { sent, inputs } = namedCalls();
    const kept = { cache: new ConversationCache(1_000_000), texts: new KnownTexts(1_000_000) };
    await resolveConversation(inputs[0]!, run, kept);
    expect(await resolveConversation(inputs[1]!, run, kept)).toMatchObject({
      system,
      tools,
      messages: [user('task'), useTool('t1')],
    });

    const asked: string[] = [];
    const fresh = {
      cache: new ConversationCache(1_000_000),
      texts: new KnownTexts(1_000_000),
      ask: async (_w: string, _r: string, h: string) => sent.find(h),
      askContext: async (_w: string, _r: string, h: string) => (asked.push(h), sent.findContext(h)),
    };
    expect(await resolveConversation(inputs[1]!, run, fresh)).toMatchObject({ system, tools });
    expect(asked).toHaveLength(1);

    const lying = {
      ...fresh,
      texts: new KnownTexts(1_000_000),
      askContext: async () => ({ system: 'something else entirely', tools }),
    };
    await expect(resolveConversation(inputs[1]!, run, lying)).rejects.toMatchObject({
      type: 'ConversationUnavailable',
      nonRetryable: false,
    });
  });

  it("an auditor rebuilds the named context from the run's earlier call, and refuses one it never sent", () => {
    const { inputs } = namedCalls();
    expect(modelCallsFromInputs(inputs).map((r) => [r.system, r.tools])).toEqual([
      [system, tools],
      [system, tools],
    ]);
    const { system: _s, tools: _t, ...rest } = request;
    const alone: ModelCallInput = {
      ...rest,
      conversation: new SentConversations().reference([user('task')]),
      context: textHash(contextText(request)),
    };
    expect(() => modelCallsFromInputs([alone])).toThrow(/names a system prompt and tools that no earlier call/);
  });
});

describe('SentConversations hashes', () => {
  it('follow a message changed in place (its hash is not reused from before the change)', () => {
    const sent = new SentConversations();
    const result = results(['t1', long('before')]);
    const first = sent.reference([user('task'), useTool('t1'), result]);
    (result.content[0] as { content: string }).content = 'elided';
    const second = sent.reference([user('task'), useTool('t1'), result]);
    expect(second.hash).not.toBe(first.hash);
    expect(second.parts).toEqual([{ from: 0, count: 2 }, { added: [results(['t1', 'elided'])] }]);
  });
});

describe('SentConversations.carriedOver', () => {
  it('names the carried tool results in the first call after a handover, not errors or short ones', () => {
    const sent = new SentConversations();
    const failed: ModelMessage = {
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: 'e', content: long('an error'), isError: true }],
    };
    const carried = [user('task'), useTool('a'), results(['a', long('carried')], ['b', short]), useTool('e'), failed];
    sent.carriedOver(carried);
    const ref = sent.reference([...carried, useTool('c')]);
    expect(ref.known).toEqual([{ message: 2, block: 0, hash: textHash(long('carried')) }]);
  });
});
