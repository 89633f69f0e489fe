import { afterEach, describe, expect, it } from 'vitest';
import { registryEndpoints } from '../../src/activities/models/endpoints/registry-endpoints';
import { RegistryEndpointError } from '../../src/activities/models/endpoints/registry-endpoint-error';
import { ModelRegistry, type ModelRequest } from '../../src/domain';
import { startFakeMessagesServer, text, type FakeMessagesServer } from '../../src/testing';

const servers: FakeMessagesServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const request: ModelRequest = {
  provider: 'claude',
  model: 'ignored: the endpoint names its own',
  system: 'Be brief.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather?' }] }],
  tools: [],
  toolChoice: 'auto',
  maxTokens: 64,
};

describe('endpoints built from a model registry', () => {
  it('builds an EU and a US entry of one AI SDK provider, each with its own URL and key, redacting the keys', async () => {
    const eu = await startFakeMessagesServer({ script: [text('Sunny in Paris.')] });
    const us = await startFakeMessagesServer({ script: [text('Rain in Boston.')] });
    servers.push(eu, us);
    const registry = ModelRegistry.parse({
      models: {
        'claude-eu': {
          provider: 'claude',
          sdk: 'anthropic',
          model: 'claude-eu-id',
          baseURL: `${eu.baseUrl}/v1`,
          apiKeyEnv: 'KEY_EU',
          group: 'claude',
        },
        'claude-us': {
          provider: 'claude',
          sdk: 'anthropic',
          model: 'claude-us-id',
          baseURL: `${us.baseUrl}/v1`,
          apiKeyEnv: 'KEY_US',
          group: 'claude',
        },
        plain: { provider: 'anthropic', model: 'claude-sonnet-4-6' },
      },
    });
    const built = await registryEndpoints(registry, { env: { KEY_EU: 'sk-eu-secret', KEY_US: 'sk-us-secret' } });
    expect(Object.keys(built.endpoints)).toEqual(['claude-eu', 'claude-us']);
    expect(built.secrets).toEqual(['sk-eu-secret', 'sk-us-secret']);
    const signal = new AbortController().signal;
    const { 'claude-eu': euEndpoint, 'claude-us': usEndpoint } = built.endpoints;
    const euReply = await euEndpoint!.provider.complete({ ...request, model: euEndpoint!.model }, signal);
    const usReply = await usEndpoint!.provider.complete({ ...request, model: usEndpoint!.model }, signal);
    expect([euReply.content, usReply.content]).toEqual([
      [{ type: 'text', text: 'Sunny in Paris.' }],
      [{ type: 'text', text: 'Rain in Boston.' }],
    ]);
    expect(eu.requests[0]!.body).toMatchObject({ model: 'claude-eu-id' });
    expect(us.requests[0]!.body).toMatchObject({ model: 'claude-us-id' });
  });

  it('refuses to start with an entry whose key variable is not set, naming the entry and the variable', async () => {
    const registry = ModelRegistry.parse({
      models: { eu: { provider: 'claude', sdk: 'anthropic', model: 'm', apiKeyEnv: 'MISSING_KEY' } },
    });
    const built = registryEndpoints(registry, { env: {} });
    await expect(built).rejects.toBeInstanceOf(RegistryEndpointError);
    await expect(built).rejects.toThrow('"eu": its API key variable MISSING_KEY is not set');
  });

  it('says which package to install for an AI SDK provider that is not installed', async () => {
    const registry = ModelRegistry.parse({
      models: { m: { provider: 'bedrock', sdk: 'amazon-bedrock', model: 'anthropic.claude-sonnet-4-6' } },
    });
    await expect(registryEndpoints(registry, { env: {} })).rejects.toThrow('npm i @ai-sdk/amazon-bedrock');
  });

  it('refuses an entry with its own endpoint whose provider nothing builds', async () => {
    const registry = ModelRegistry.parse({
      models: { m: { provider: 'gemini', model: 'gemini-2.5-pro', baseURL: 'https://example.test/v1' } },
    });
    await expect(registryEndpoints(registry, { env: {} })).rejects.toThrow(
      'name the AI SDK package that serves it in "sdk"',
    );
  });
});
