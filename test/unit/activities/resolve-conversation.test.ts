import { describe, expect, it } from 'vitest';
import { ConversationCache } from '../../../src/activities/conversation/conversation-cache';
import { rememberReply } from '../../../src/activities/conversation/remember-reply';
import { resolveConversation } from '../../../src/activities/conversation/resolve-conversation';
import {
  carriedConversations,
  lastConversations,
  modelCallsFromInputs,
  type ModelCallInput,
  type ModelMessage,
  wholeHash,
} from '../../../src/domain';
import { SentConversations } from '../../../src/workflows/core/state/sent-conversations';

const user = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
const call = {
  provider: 'scripted' as const,
  model: 'm',
  system: 's',
  tools: [],
  toolChoice: 'auto' as const,
  maxTokens: 10,
};
const run = { workflowId: 'wf', runId: 'r1' };

/** What the workflow sends for three calls: the second extends the first, the third drops a turn from the middle. */
function threeCalls() {
  const sent = new SentConversations();
  const task = user('task');
  const first = [task, assistant('a1'), user('o1')];
  const second = [...first, assistant('a2'), user('o2')];
  const third = [task, assistant('a2'), user('o2'), assistant('a3'), user('o3')];
  const inputs: ModelCallInput[] = [first, second, third].map((messages) => ({
    ...call,
    conversation: sent.reference(messages),
  }));
  return { inputs, messages: [first, second, third], sent };
}

describe('the workflow names the runs of messages a call shares with one it sent', () => {
  it('sends only what is new, after an extension and after compaction dropped a turn', () => {
    const { inputs } = threeCalls();
    const refs = inputs.map((i) => ('conversation' in i ? i.conversation : undefined)!);
    expect(refs[0]).toMatchObject({
      baseHash: '',
      parts: [{ added: [user('task'), assistant('a1'), user('o1')] }],
      count: 3,
    });
    expect(refs[1]).toMatchObject({
      baseHash: refs[0]!.hash,
      parts: [{ from: 0, count: 3 }, { added: [assistant('a2'), user('o2')] }],
      count: 5,
    });
    expect(refs[2]).toMatchObject({
      baseHash: refs[1]!.hash,
      parts: [{ from: 0, count: 1 }, { from: 3, count: 2 }, { added: [assistant('a3'), user('o3')] }],
      count: 5,
    });
  });

  it('matches equal messages that are not the same objects (a copy after a restore)', () => {
    const { sent, messages, inputs } = threeCalls();
    const copy = JSON.parse(JSON.stringify([...messages[2]!, user('more')])) as ModelMessage[];
    const ref = sent.reference(copy);
    expect(ref).toMatchObject({
      baseHash: 'conversation' in inputs[2]! ? inputs[2].conversation.hash : '',
      parts: [{ from: 0, count: 5 }, { added: [user('more')] }],
    });
  });
});

describe('resolveConversation: the worker rebuilds the whole request', () => {
  it('from what it kept, when the run sent the earlier conversation through it', async () => {
    const { inputs, messages } = threeCalls();
    const source = { cache: new ConversationCache(1_000_000) };
    for (const [i, input] of inputs.entries())
      expect(await resolveConversation(input, run, source)).toEqual({ ...call, messages: messages[i] });
  });

  it('call after call with replies and a dropped turn: each kept conversation holds the whole hash of every prefix and the size of every message', async () => {
    const sent = new SentConversations();
    const cache = new ConversationCache(1_000_000);
    let messages: ModelMessage[] = [user('task')];
    for (let i = 0; i < 12; i++) {
      if (i === 8) messages = [messages[0]!, ...messages.slice(3)]; // compaction dropped a turn
      const input: ModelCallInput = { ...call, conversation: sent.reference(messages) };
      const ref = 'conversation' in input ? input.conversation : undefined;
      expect(await resolveConversation(input, run, { cache })).toEqual({ ...call, messages });
      const content = [{ type: 'text' as const, text: `thought ${i}` }];
      sent.replied(ref!.hash, content);
      rememberReply(cache, run.workflowId, ref!.hash, content);
      for (const hash of [ref!.hash, sent.find(ref!.hash) && ref!.hash]) {
        const kept = cache.find(run.workflowId, hash!)!;
        expect(kept.prefixes).toEqual(kept.hashes.map((_, n) => wholeHash(kept.hashes.slice(0, n + 1))));
        expect(kept.sizes).toEqual(kept.messages.map((m) => JSON.stringify(m).length));
        expect(kept.bytes).toBe(JSON.stringify(kept.messages).length);
      }
      messages = [...messages, { role: 'assistant', content }, user(`observation ${i}`)];
    }
  });

  it('from the run, when it kept nothing (a restart, another worker), and only when the hash holds', async () => {
    const { inputs, messages } = threeCalls();
    const asked: string[] = [];
    const answering = {
      cache: new ConversationCache(1_000_000),
      ask: async (_w: string, _r: string, hash: string) => (asked.push(hash), messages[2]),
    };
    expect(await resolveConversation(inputs[2]!, run, answering)).toEqual({ ...call, messages: messages[2] });
    expect(asked).toHaveLength(1);
    const wrong = { cache: new ConversationCache(1_000_000), ask: async () => messages[1] };
    await expect(resolveConversation(inputs[2]!, run, wrong)).rejects.toMatchObject({
      type: 'ConversationUnavailable',
      nonRetryable: false,
    });
  });

  it('fails the attempt, retryably and saying why, when nobody has the earlier conversation', async () => {
    const { inputs } = threeCalls();
    await expect(
      resolveConversation(inputs[1]!, run, { cache: new ConversationCache(1_000_000) }),
    ).rejects.toMatchObject({
      type: 'ConversationUnavailable',
      message: expect.stringContaining('does not hold the earlier conversation'),
    });
    // Another workflow's conversation is never used, even with the same messages.
    const cache = new ConversationCache(1_000_000);
    await resolveConversation(inputs[0]!, { workflowId: 'other', runId: 'r9' }, { cache });
    await expect(resolveConversation(inputs[1]!, run, { cache })).rejects.toMatchObject({
      type: 'ConversationUnavailable',
    });
  });

  it('from what an earlier Temporal run of the same workflow sent: a handover names it', async () => {
    const { inputs, messages, sent } = threeCalls();
    const cache = new ConversationCache(1_000_000);
    await resolveConversation(inputs[2]!, run, { cache, ask: async () => messages[2] });
    const carried = [...messages[2]!, assistant('a4'), user('o4')];
    const next = new SentConversations();
    expect(next.continueFrom(carried, sent.sentPrefixOf(carried)!)).toBe(true);
    const first: ModelCallInput = { ...call, conversation: next.reference(carried) };
    expect(await resolveConversation(first, { workflowId: 'wf', runId: 'r2' }, { cache })).toEqual({
      ...call,
      messages: carried,
    });
    // An auditor rebuilds it from the run before's last calls.
    const earlierRun = modelCallsFromInputs(inputs);
    expect(modelCallsFromInputs([first], undefined, lastConversations(earlierRun))).toEqual([
      { ...call, messages: carried },
    ]);
    expect(() => modelCallsFromInputs([first])).toThrow(/no earlier call sent/);
  });

  it('for an auditor, from what the handover carried when the run before is gone: the sent conversation, only if its hash holds, and the tool results named', () => {
    const { messages, sent } = threeCalls();
    const long = 'row '.repeat(100);
    const carried: ModelMessage[] = [
      ...messages[2]!,
      assistant('a4'),
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 't4', content: long, isError: false }] },
    ];
    const sentConversation = sent.sentPrefixOf(carried)!;
    const next = new SentConversations();
    next.carriedOver(carried);
    next.continueFrom(carried, sentConversation);
    const first: ModelCallInput = { ...call, conversation: next.reference(carried) };
    expect('conversation' in first && first.conversation.known).toHaveLength(1);
    const { conversations, texts } = carriedConversations({
      messages: JSON.parse(JSON.stringify(carried)),
      sentConversation,
    });
    expect(modelCallsFromInputs([first], (hash) => texts.get(hash), conversations)).toEqual([
      { ...call, messages: carried },
    ]);
    // Messages that do not hash to what the run sent are not built on; nothing unreadable is.
    const altered = carriedConversations({ messages: [user('forged'), ...carried.slice(1)], sentConversation });
    expect(altered.conversations.size).toBe(0);
    expect(() => modelCallsFromInputs([first], (hash) => altered.texts.get(hash), altered.conversations)).toThrow(
      /no earlier call sent/,
    );
    for (const unreadable of [
      undefined,
      'x',
      { messages: 'x', sentConversation: { messages: -1 } },
      { messages: [null, 7], sentConversation },
    ]) {
      expect(carriedConversations(unreadable).conversations.size).toBe(0);
    }
  });

  it('passes a whole request through as it is (histories from before)', async () => {
    const whole: ModelCallInput = { ...call, messages: [user('task')] };
    expect(await resolveConversation(whole, run, { cache: new ConversationCache(0) })).toBe(whole);
  });
});

describe('the reply a call received is named by the next call, not recorded again', () => {
  const reply = [{ type: 'tool_use' as const, id: 't1', name: 'lookup', input: { key: 'k' } }];
  const result: ModelMessage = {
    role: 'user',
    content: [{ type: 'tool_result', toolUseId: 't1', content: 'found', isError: false }],
  };

  it('the workflow names it, the worker that made the call rebuilds it, and an auditor does from the recorded reply', async () => {
    const sent = new SentConversations();
    const first = [user('task')];
    const firstInput: ModelCallInput = { ...call, conversation: sent.reference(first) };
    const firstRef = 'conversation' in firstInput ? firstInput.conversation : undefined;
    sent.replied(firstRef!.hash, reply);
    const second = [...first, { role: 'assistant' as const, content: reply }, result];
    const secondInput: ModelCallInput = { ...call, conversation: sent.reference(second) };
    expect(secondInput).toMatchObject({
      conversation: { parts: [{ from: 0, count: 2 }, { added: [result] }], count: 3 },
    });

    // The reply as it crossed the payload: the same JSON, other objects.
    const received = JSON.parse(JSON.stringify(reply)) as typeof reply;
    const cache = new ConversationCache(1_000_000);
    await resolveConversation(firstInput, run, { cache });
    rememberReply(cache, run.workflowId, firstRef!.hash, received);
    expect(await resolveConversation(secondInput, run, { cache })).toEqual({ ...call, messages: second });
    // A worker that did not keep it asks the run, which has it.
    expect(
      await resolveConversation(secondInput, run, {
        cache: new ConversationCache(1_000_000),
        ask: async (_w, _r, hash) => sent.find(hash),
      }),
    ).toEqual({ ...call, messages: second });

    expect(
      modelCallsFromInputs([firstInput, secondInput], undefined, undefined, [received]).map((r) => r.messages),
    ).toEqual([first, second]);
    expect(() => modelCallsFromInputs([firstInput, secondInput])).toThrow(/no earlier call sent/);
    // A handover names the conversation with the reply: the next Temporal run's auditor builds on it.
    const carried = [...second, { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'done' }] }];
    sent.replied(
      ('conversation' in secondInput ? secondInput.conversation : undefined)!.hash,
      carried[3]!.content as typeof reply,
    );
    const named = sent.sentPrefixOf(carried)!;
    expect(named.messages).toBe(4);
    const next = new SentConversations();
    expect(next.continueFrom(carried, named)).toBe(true);
    const nextInput: ModelCallInput = { ...call, conversation: next.reference([...carried, user('more')]) };
    const earlierRun = modelCallsFromInputs([firstInput, secondInput], undefined, undefined, [
      received,
      carried[3]!.content as typeof reply,
    ]);
    expect(
      modelCallsFromInputs(
        [nextInput],
        undefined,
        lastConversations(earlierRun, [received, carried[3]!.content as typeof reply]),
      )[0]!.messages,
    ).toEqual([...carried, user('more')]);
  });

  it('is forgotten for a conversation the worker no longer keeps, and the next call then asks the run', async () => {
    const cache = new ConversationCache(1_000_000);
    rememberReply(cache, 'wf', 'no-such-hash', reply);
    expect(cache.size).toBe(0);
  });
});

describe('modelCallsFromInputs: every prompt from a history', () => {
  it('rebuilds each call, and refuses one that builds on nothing earlier', () => {
    const { inputs, messages } = threeCalls();
    expect(modelCallsFromInputs(inputs).map((r) => r.messages)).toEqual(messages);
    expect(() => modelCallsFromInputs(inputs.slice(1))).toThrow(/builds on an earlier conversation/);
  });
});

describe('ConversationCache', () => {
  it('keeps at most its bytes, dropping the runs used longest ago', () => {
    const cache = new ConversationCache(100);
    const kept = (whole: string, bytes: number) => ({ messages: [user(whole)], hashes: [whole], whole, bytes });
    cache.remember('a', kept('ha', 40));
    cache.remember('b', kept('hb', 40));
    expect(cache.find('a', 'ha')).toBeDefined();
    cache.remember('c', kept('hc', 40));
    // b was used longest ago: it goes; a, read since, stays.
    expect(cache.find('b', 'hb')).toBeUndefined();
    expect(cache.find('a', 'ha')).toBeDefined();
    expect(cache.size).toBeLessThanOrEqual(100);
    cache.remember('d', kept('hd', 101));
    expect(cache.find('d', 'hd')).toBeUndefined();
  });
});
