import { afterEach, beforeEach } from 'vitest';
import { createOpenAICompatibleProvider } from '../../src/activities/models/openai/openai-compatible-provider';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../../src/testing/openai';
import { chatScriptFor } from './openai-script';
import { contractRequest, defineProviderContract, type ProviderHarness } from './provider-contract';

function useOpenAICompatibleOnFakeServer(): ProviderHarness {
  let server: FakeOpenAIServer;
  const harness = {
    request: contractRequest('openai-compatible', 'llama3.2'),
    arrange: (scenario) => server.append([chatScriptFor(scenario)]),
    verify: () => server.verify(),
  } as ProviderHarness;
  beforeEach(async () => {
    server = await startFakeOpenAIServer();
    harness.provider = createOpenAICompatibleProvider({ baseURL: server.baseUrl });
  });
  afterEach(async () => server.close());
  return harness;
}

defineProviderContract('openai-compatible on the fake Chat Completions server', useOpenAICompatibleOnFakeServer, {
  stopSequence: 'sent',
  malformedReply: true,
});
