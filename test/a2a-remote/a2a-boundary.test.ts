import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { a2aAllowList } from '../../src/activities/a2a/a2a-allow-list';
import {
  a2aSecrets,
  InvalidA2aSettingsError,
  loadA2aSettings,
  MAX_A2A_ALLOW_ENTRIES,
  parseA2aSettings,
} from '../../src/activities/a2a/a2a-settings';
import { remoteOutcome, reportedSpend } from '../../src/activities/a2a/remote-task-result';
import { MAX_A2A_CARD_URL_CHARS, SubAgentDefinition } from '../../src/domain';
import { createRedactor } from '../../src/tools/redact-secrets';

/** The pure parts of the boundary: settings, the allow-list, card URLs in definitions, and reading a remote task. */
describe('A2A settings and allow-list', () => {
  it('fails closed: no settings or an empty list refuses every card', () => {
    expect(a2aAllowList(undefined).cardRefusal('https://agents.example.com/card.json')).toMatch(/no A2A allow-list/);
    expect(a2aAllowList({ allow: [] }).cardRefusal('https://agents.example.com/card.json')).toMatch(
      /no A2A allow-list/,
    );
  });

  it('an origin allows every card there; a card URL allows that card only, and requests to its origin', () => {
    const list = a2aAllowList({ allow: ['https://agents.example.com', 'https://one.example.org/a/card.json'] });
    expect(list.cardRefusal('https://agents.example.com/x/agent-card.json')).toBeUndefined();
    expect(list.cardRefusal('https://one.example.org/a/card.json')).toBeUndefined();
    expect(list.cardRefusal('https://one.example.org/b/card.json')).toMatch(/not on this worker's A2A allow-list/);
    expect(list.cardRefusal('https://agents.example.com:8443/card.json')).toMatch(/not on/);
    expect(list.cardRefusal('https://user:pw@agents.example.com/card.json')).toMatch(/carries credentials/);
    expect(list.requestRefusal(new URL('https://one.example.org/rpc'))).toBeUndefined();
    expect(list.requestRefusal(new URL('https://evil.example.net/rpc'))).toMatch(/not an origin on/);
    expect(list.requestRefusal(new URL('file:///etc/passwd'))).toMatch(/not http or https/);
  });

  it('opens an IP literal named on the list, and nothing else private', () => {
    const list = a2aAllowList({ allow: ['http://127.0.0.1:9000', 'http://localhost:9000'] });
    expect(list.addressesFor('127.0.0.1').ranges).toHaveLength(1);
    // Opened for the literal only: the name beside it on the list gets nothing.
    expect(list.addressesFor('localhost').ranges).toHaveLength(0);
  });

  it('refuses settings it cannot read, with the path named', () => {
    expect(() => a2aAllowList({ allow: ['ftp://x.example.com'] })).toThrow(InvalidA2aSettingsError);
    expect(() => a2aAllowList({ allow: ['not a url'] })).toThrow(/not an absolute URL/);
    expect(() =>
      a2aAllowList({ allow: ['https://a.example.com'], allowAddresses: { 'a.example.com': ['10.0.0.0/99'] } }),
    ).toThrow(InvalidA2aSettingsError);
    expect(() => parseA2aSettings({ allow: ['https://a.example.com'], extra: 1 })).toThrow(/extra/);
    expect(() => parseA2aSettings({ allow: [], auth: { 'https://a.example.com': { bearerEnv: 'bad name' } } })).toThrow(
      /bearerEnv/,
    );
    const many = Array.from({ length: MAX_A2A_ALLOW_ENTRIES }, (_, i) => `https://a${i}.example.com`);
    expect(parseA2aSettings({ allow: many }).allow).toHaveLength(MAX_A2A_ALLOW_ENTRIES);
    expect(() => parseA2aSettings({ allow: [...many, 'https://b.example.com'] })).toThrow(InvalidA2aSettingsError);
  });

  it('reads a settings file, and refuses one that is not JSON or too large', async () => {
    const file = (content: string) => {
      const at = path.join(mkdtempSync(path.join(tmpdir(), 'tl-a2a-')), 'a2a.json');
      writeFileSync(at, content);
      return at;
    };
    await expect(loadA2aSettings(file('{"allow":["https://a.example.com"]}'))).resolves.toEqual({
      allow: ['https://a.example.com'],
    });
    await expect(loadA2aSettings(file('{ allow: '))).rejects.toThrow(/are not JSON/);
    await expect(loadA2aSettings(file(' '.repeat(256_001)))).rejects.toThrow(/over 256000 bytes/);
    await expect(loadA2aSettings('/nonexistent/a2a.json')).rejects.toThrow(InvalidA2aSettingsError);
  });

  it('names the bearer tokens as secrets, read from the environment', () => {
    const settings = parseA2aSettings({ allow: [], auth: { 'https://a.example.com': { bearerEnv: 'TOKEN_A' } } });
    expect(a2aSecrets(settings, { TOKEN_A: 'tok-a' })).toEqual(['tok-a']);
    expect(a2aSecrets(settings, {})).toEqual([]);
  });
});

describe('a remote agent in a sub-agent definition', () => {
  const base = { description: 'A remote analyst' };
  it('takes an http(s) card URL up to the limit, and refuses anything else', () => {
    const long = `https://agents.example.com/${'a'.repeat(MAX_A2A_CARD_URL_CHARS - 'https://agents.example.com/'.length)}`;
    expect(long).toHaveLength(MAX_A2A_CARD_URL_CHARS);
    expect(SubAgentDefinition.safeParse({ ...base, a2a: { card: long } }).success).toBe(true);
    expect(SubAgentDefinition.safeParse({ ...base, a2a: { card: `${long}a` } }).success).toBe(false);
    for (const card of [
      'ftp://x.example.com/card',
      'https://u:p@x.example.com/card',
      'agents.example.com',
      'https://a b.com/',
    ])
      expect(SubAgentDefinition.safeParse({ ...base, a2a: { card } }).success, card).toBe(false);
  });

  it('leaves a definition without it as it was', () => {
    expect(SubAgentDefinition.parse(base)).toEqual({ ...base, limits: {} });
  });
});

describe('reading a remote task', () => {
  const text = (value: string) => ({
    content: { $case: 'text' as const, value },
    metadata: undefined,
    filename: '',
    mediaType: '',
  });
  const task = (state: number, extra: Record<string, unknown> = {}) =>
    ({
      id: 't1',
      contextId: 'c1',
      status: { state, message: undefined, timestamp: undefined },
      artifacts: [],
      history: [],
      metadata: undefined,
      ...extra,
    }) as never;

  it('reads thoughtline spend from the task, an artifact or a data part, and ignores what does not parse', () => {
    expect(reportedSpend(task(3, { metadata: { thoughtline: { costUsd: 0.5 } } }))).toEqual({ costUsd: 0.5 });
    const artifact = {
      artifactId: 'a',
      name: '',
      description: '',
      parts: [{ content: { $case: 'data', value: { thoughtline: { runId: 'r', usage: { inputTokens: 3 } } } } }],
      metadata: { thoughtline: { costUsd: -1 } },
      extensions: [],
    };
    expect(reportedSpend(task(3, { artifacts: [artifact] }))).toEqual({
      runId: 'r',
      usage: { inputTokens: 3, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    });
    expect(reportedSpend(task(3, { metadata: { thoughtline: 'x' }, artifacts: [] }))).toEqual({});
    expect(reportedSpend(task(3, { metadata: { other: { costUsd: 1 } } }))).toEqual({});
  });

  it('answers from artifacts when completed, from the status message otherwise', () => {
    const redact = createRedactor([]);
    const artifacts = [
      { artifactId: 'a', name: '', description: '', parts: [text('the answer')], metadata: undefined, extensions: [] },
    ];
    const status = (state: number, says: string) => ({ state, message: { parts: [text(says)] }, timestamp: undefined });
    expect(remoteOutcome(task(3, { artifacts, status: status(3, 'done') }), 100, redact)).toMatchObject({
      state: 'completed',
      text: 'the answer',
    });
    expect(remoteOutcome(task(6, { status: status(6, 'Which year?') }), 100, redact)).toMatchObject({
      state: 'input-required',
      text: 'Which year?',
    });
    expect(remoteOutcome(task(42), 100, redact).state).toBe('unknown');
  });
});
