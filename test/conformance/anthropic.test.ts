import { afterEach, beforeEach } from 'vitest';
import { createAnthropicProvider } from '../../src/activities/models/anthropic/anthropic-provider';
import { startFakeMessagesServer, type FakeMessagesServer } from '../../src/testing';
import { messagesScriptFor } from './anthropic-script';
import { contractRequest, defineProviderContract, type ProviderHarness } from './provider-contract';

function useAnthropicOnFakeServer(): ProviderHarness {
  let server: FakeMessagesServer;
  const harness = {
    // The contract's temperature 0 is sent, on API version 2023-06-01 (anthropic-sampling.ts).
    request: contractRequest('anthropic', 'claude-sonnet-4-6'),
    arrange: (scenario) => server.append([messagesScriptFor(scenario)]),
    verify: () => server.verify(),
  } as ProviderHarness;
  beforeEach(async () => {
    server = await startFakeMessagesServer();
    harness.provider = createAnthropicProvider({ apiKey: 'sk-ant-test-key-0123456789', baseURL: server.baseUrl });
  });
  afterEach(async () => server.close());
  return harness;
}

defineProviderContract('anthropic on the fake Messages server', useAnthropicOnFakeServer, {
  stopSequence: 'reported',
  malformedReply: true,
});
