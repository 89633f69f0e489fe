import { afterEach, beforeEach } from 'vitest';
import { createAiSdkProvider } from '../../src/activities/models/ai-sdk/ai-sdk-provider';
import { startFakeMessagesServer, type FakeMessagesServer } from '../../src/testing';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../../src/testing/openai';
import { messagesScriptFor } from './anthropic-script';
import { chatScriptFor } from './openai-script';
import { contractRequest, defineProviderContract, type ProviderHarness } from './provider-contract';

/** The AI SDK adapter over `@ai-sdk/anthropic` (a provider object), against the fake Messages server. */
function useAiSdkAnthropic(): ProviderHarness {
  let server: FakeMessagesServer;
  const harness = {
    // Anthropic's API version refuses every sampling setting; the model reports them unsupported.
    request: contractRequest('claude', 'claude-sonnet-4-6', { sampling: undefined }),
    arrange: (scenario) => server.append([messagesScriptFor(scenario)]),
    verify: () => server.verify(),
  } as ProviderHarness;
  beforeEach(async () => {
    server = await startFakeMessagesServer();
    // ESM-only packages: loaded with import(), as a CommonJS worker would.
    const { createAnthropic } = await import('@ai-sdk/anthropic');
    harness.provider = createAiSdkProvider(createAnthropic({ baseURL: `${server.baseUrl}/v1`, apiKey: 'sk-ant-test' }));
  });
  afterEach(async () => server.close());
  return harness;
}

/** The AI SDK adapter over `@ai-sdk/openai`'s Chat Completions model, against the fake Chat Completions server. */
function useAiSdkOpenAIChat(): ProviderHarness {
  let server: FakeOpenAIServer;
  const harness = {
    request: contractRequest('openai', 'gpt-4o'),
    arrange: (scenario) => server.append([chatScriptFor(scenario)]),
    verify: () => server.verify(),
  } as ProviderHarness;
  beforeEach(async () => {
    server = await startFakeOpenAIServer();
    const { createOpenAI } = await import('@ai-sdk/openai');
    harness.provider = createAiSdkProvider(createOpenAI({ baseURL: server.baseUrl, apiKey: 'sk-test' }).chat('gpt-4o'));
  });
  afterEach(async () => server.close());
  return harness;
}

defineProviderContract('the AI SDK adapter over @ai-sdk/anthropic on the fake Messages server', useAiSdkAnthropic, {
  stopSequence: 'reported',
  malformedReply: true,
});

defineProviderContract(
  'the AI SDK adapter over @ai-sdk/openai on the fake Chat Completions server',
  useAiSdkOpenAIChat,
  {
    stopSequence: 'sent',
    malformedReply: true,
  },
);
