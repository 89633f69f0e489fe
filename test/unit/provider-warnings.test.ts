import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAnthropicProvider, NO_ANTHROPIC_KEY } from '../../src/activities/models/anthropic/anthropic-provider';
import { providerWarnings } from '../../src/activities/models/provider-warnings';
import { createOfflineModel } from '../../src/offline/offline-model';

afterEach(() => vi.unstubAllEnvs());

describe('a worker without a key for its provider says so once, at start', () => {
  it('createAnthropicProvider with no key anywhere carries the warning; the worker names its provider', () => {
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    vi.stubEnv('ANTHROPIC_AUTH_TOKEN', '');
    const keyless = createAnthropicProvider();
    expect(keyless.startWarning).toBe(NO_ANTHROPIC_KEY);
    expect(NO_ANTHROPIC_KEY).toMatch(/ModelAuthentication/);
    expect(NO_ANTHROPIC_KEY).toMatch(/createOfflineModel\(\)/);
    expect(providerWarnings({ anthropic: keyless, scripted: createOfflineModel() })).toEqual([
      `Model provider "anthropic": ${NO_ANTHROPIC_KEY}`,
    ]);
  });

  it('a key in the options or the environment, or an offline model, warns of nothing', () => {
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    expect(createAnthropicProvider({ apiKey: 'sk-ant-test' }).startWarning).toBeUndefined();
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-from-env');
    expect(createAnthropicProvider().startWarning).toBeUndefined();
    expect(providerWarnings({ anthropic: createOfflineModel() })).toEqual([]);
  });
});
