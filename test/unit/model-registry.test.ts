import { describe, expect, it } from 'vitest';
import { isModelAllowed, ModelRegistry, resolveModel, UnknownModelError } from '../../src/domain';

const registry = ModelRegistry.parse({
  models: {
    smart: { provider: 'anthropic', model: 'claude-opus-4-6', fallbacks: ['fast', 'local'] },
    fast: { provider: 'anthropic', model: 'claude-haiku-4-5', maxTokens: 1024, price: { input: 1, output: 5 } },
    local: { provider: 'openai-compatible', model: 'llama3.1:8b' },
    banned: { provider: 'anthropic', model: 'claude-3-opus' },
  },
  allowed: ['smart', 'fast', 'local'],
  openaiCompatibleBaseUrl: 'http://localhost:11434/v1',
});

describe('model registry', () => {
  it('resolves a name to run settings with its fallbacks in order', () => {
    expect(resolveModel(registry, 'smart')).toEqual({
      provider: 'anthropic',
      model: 'claude-opus-4-6',
      fallbacks: [
        {
          provider: 'anthropic',
          model: 'claude-haiku-4-5',
          maxTokens: 1024,
          price: { input: 1, output: 5, cacheRead: 0, cacheWrite: 0 },
        },
        { provider: 'openai-compatible', model: 'llama3.1:8b' },
      ],
    });
  });

  it('refuses names outside the allow-list, saying what is allowed', () => {
    expect(() => resolveModel(registry, 'banned')).toThrow(UnknownModelError);
    expect(() => resolveModel(registry, 'nope')).toThrow(/Allowed: smart, fast, local/);
  });

  it('lets workers check provider/model pairs against the allow-list', () => {
    expect(isModelAllowed(registry, 'openai-compatible', 'llama3.1:8b')).toBe(true);
    expect(isModelAllowed(registry, 'anthropic', 'claude-3-opus')).toBe(false);
    expect(isModelAllowed(registry, 'openai-compatible', 'claude-opus-4-6')).toBe(false);
  });

  it('rejects a registry naming models it does not define', () => {
    const bad = ModelRegistry.safeParse({
      models: { a: { provider: 'anthropic', model: 'x', fallbacks: ['ghost'] } },
      allowed: ['a', 'b'],
    });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((i) => i.message) ?? [];
    expect(messages).toEqual([
      expect.stringContaining('"b" is not a registered model'),
      expect.stringContaining('"ghost" is not a registered model'),
    ]);
  });
});
