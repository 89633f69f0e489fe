import { describe, expect, it } from 'vitest';
import { ConversationCache } from '../../../src/activities/conversation/conversation-cache';
import { resolveConversation } from '../../../src/activities/conversation/resolve-conversation';
import type { ModelCallInput, ModelMessage } from '../../../src/shared';
import { SentConversations } from '../../../src/workflows/model/sent-conversations';

const user = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
const call = { provider: 'scripted', model: 'm', system: 's', tools: [], toolChoice: 'auto', maxTokens: 10 } as const;
const run = { workflowId: 'wf', runId: 'r1' };

/** What the workflow sends for two calls in a row, the second extending the first. */
function twoCalls() {
  const sent = new SentConversations();
  const first = [user('task'), assistant('thinking')];
  const second = [...first, user('observation')];
  return { first: { ...call, conversation: sent.reference(first) }, second: { ...call, conversation: sent.reference(second) }, messages: { first, second }, sent };
}

describe('the workflow names the prefix a call shares with one it sent', () => {
  it('by the same messages, or by equal ones (a copy), and sends only the rest', () => {
    const { first, second, sent } = twoCalls();
    expect(first.conversation).toMatchObject({ baseCount: 0, count: 2 });
    expect(second.conversation).toMatchObject({ baseCount: 2, baseHash: first.conversation.hash, added: [user('observation')], count: 3 });
    const copy = sent.reference(JSON.parse(JSON.stringify([user('task'), assistant('thinking'), user('observation'), user('more')])) as ModelMessage[]);
    expect(copy).toMatchObject({ baseCount: 3, baseHash: second.conversation.hash, added: [user('more')], count: 4 });
  });
});

describe('resolveConversation: the worker rebuilds the whole request', () => {
  it('from what it kept, when the run sent the prefix through it', async () => {
    const { first, second, messages } = twoCalls();
    const source = { cache: new ConversationCache(1_000_000) };
    expect(await resolveConversation(first, run, source)).toEqual({ ...call, messages: messages.first });
    expect(await resolveConversation(second, run, source)).toEqual({ ...call, messages: messages.second });
  });

  it('from the run, when it kept nothing (a restart, another worker), and only when the hash holds', async () => {
    const { second, messages } = twoCalls();
    const asked: string[] = [];
    const answering = { cache: new ConversationCache(1_000_000), ask: async (_w: string, _r: string, hash: string) => (asked.push(hash), messages.second) };
    expect(await resolveConversation(second, run, answering)).toEqual({ ...call, messages: messages.second });
    expect(asked).toEqual([second.conversation.hash]);
    const wrong = { cache: new ConversationCache(1_000_000), ask: async () => messages.first };
    await expect(resolveConversation(second, run, wrong)).rejects.toMatchObject({ type: 'ConversationUnavailable', nonRetryable: false });
  });

  it('fails the attempt, retryably and saying why, when nobody has the prefix', async () => {
    const { second } = twoCalls();
    await expect(resolveConversation(second, run, { cache: new ConversationCache(1_000_000) })).rejects.toMatchObject({ type: 'ConversationUnavailable', message: expect.stringContaining('does not hold the first 2 messages') });
    // Another run's conversation is never used, even with the same messages.
    const cache = new ConversationCache(1_000_000);
    await resolveConversation(twoCalls().first, { workflowId: 'other', runId: 'r9' }, { cache });
    await expect(resolveConversation(second, run, { cache })).rejects.toMatchObject({ type: 'ConversationUnavailable' });
  });

  it('passes a whole request through as it is (histories from before)', async () => {
    const whole: ModelCallInput = { ...call, messages: [user('task')] };
    expect(await resolveConversation(whole, run, { cache: new ConversationCache(0) })).toBe(whole);
  });
});

describe('ConversationCache', () => {
  it('keeps at most its bytes, dropping the runs used longest ago', () => {
    const cache = new ConversationCache(100);
    const kept = (hash: string, bytes: number) => ({ messages: [user(hash)], hashes: [hash], bytes });
    cache.remember('a', kept('ha', 40));
    cache.remember('b', kept('hb', 40));
    expect(cache.prefix('a', 1, 'ha')).toBeDefined();
    cache.remember('c', kept('hc', 40));
    // b was used longest ago: it goes; a, read since, stays.
    expect(cache.prefix('b', 1, 'hb')).toBeUndefined();
    expect(cache.prefix('a', 1, 'ha')).toBeDefined();
    expect(cache.size).toBeLessThanOrEqual(100);
    cache.remember('d', kept('hd', 101));
    expect(cache.prefix('d', 1, 'hd')).toBeUndefined();
  });
});
