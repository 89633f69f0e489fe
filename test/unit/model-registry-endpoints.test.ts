import { describe, expect, it } from 'vitest';
import { ModelRegistry, registeredStrategy, resolveModel } from '../../src/domain';

const registry = ModelRegistry.parse({
  models: {
    'gpt-eu': {
      provider: 'openai',
      sdk: 'openai',
      model: 'gpt-4.1',
      baseURL: 'https://eu.api.example/v1',
      apiKeyEnv: 'OPENAI_API_KEY_EU',
      group: 'gpt',
    },
    'gpt-us': { provider: 'openai', sdk: 'openai', model: 'gpt-4.1', apiKeyEnv: 'OPENAI_API_KEY_US', group: 'gpt' },
    'claude-bedrock': {
      provider: 'bedrock',
      sdk: 'amazon-bedrock',
      model: 'anthropic.claude-sonnet-4-6',
      region: 'eu-central-1',
      sampling: { temperature: 0.2 },
    },
    small: { provider: 'openai-compatible', model: 'smollm2:135m', strategy: 'react-text', fallbacks: ['gpt'] },
  },
});

describe('model registry entries with their own endpoints', () => {
  it('routes an entry with its own endpoint by name, with its sampling defaults', () => {
    expect(resolveModel(registry, 'claude-bedrock')).toEqual({
      provider: 'bedrock',
      model: 'anthropic.claude-sonnet-4-6',
      sampling: { temperature: 0.2 },
      endpoints: ['claude-bedrock'],
      fallbacks: [],
    });
  });

  it('resolves a group to its first entry with every entry of the group as an endpoint', () => {
    expect(resolveModel(registry, 'gpt')).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1',
      endpoints: ['gpt-eu', 'gpt-us'],
    });
    // A group can be a fallback too.
    expect(resolveModel(registry, 'small').fallbacks).toEqual([
      { provider: 'openai', model: 'gpt-4.1', endpoints: ['gpt-eu', 'gpt-us'] },
    ]);
  });

  it("reads an entry's strategy, so a model without tool calling runs in text ReAct", () => {
    expect(registeredStrategy(registry, 'small')).toBe('react-text');
    expect(registeredStrategy(registry, 'gpt')).toBeUndefined();
  });

  it('refuses what it cannot read: unknown keys, a key written in place of its variable, a region without a cloud sdk', () => {
    const one = (entry: Record<string, unknown>) => ModelRegistry.safeParse({ models: { m: entry } }).success;
    expect(one({ provider: 'openai', model: 'x', apiKey: 'sk-123' })).toBe(false);
    expect(one({ provider: 'openai', model: 'x', apiKeyEnv: 'sk-12 3' })).toBe(false);
    expect(one({ provider: 'openai', model: 'x', sdk: 'openai', region: 'eu' })).toBe(false);
    expect(one({ provider: 'openai', model: 'x', sdk: 'not-a-package' })).toBe(false);
    expect(one({ provider: 'openai', model: 'x', sampling: { temperature: 3 } })).toBe(false);
    expect(one({ provider: 'openai', model: 'x', sdk: 'openai', apiKeyEnv: 'OPENAI_API_KEY' })).toBe(true);
  });

  it('refuses a group named like a model, which would make a name mean two things', () => {
    const parsed = ModelRegistry.safeParse({
      models: { a: { provider: 'openai', model: 'x', group: 'b' }, b: { provider: 'openai', model: 'y' } },
    });
    expect(parsed.success).toBe(false);
  });
});
