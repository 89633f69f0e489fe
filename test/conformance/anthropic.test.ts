import { afterEach, beforeEach } from 'vitest';
import { createAnthropicProvider } from '../../src/activities/models/anthropic/anthropic-provider';
import { startFakeMessagesServer, type FakeMessagesServer } from '../../src/testing';
import { messagesScriptFor } from './anthropic-script';
import { contractRequest, defineProviderContract, type ProviderHarness } from './provider-contract';

function useAnthropicOnFakeServer(): ProviderHarness {
  let server: FakeMessagesServer;
  const harness = {
    request: contractRequest('anthropic', 'claude-sonnet-4-6', {
      // The Anthropic provider refuses sampling settings it cannot send (ModelSettingUnsupported).
      sampling: undefined,
    }),
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
