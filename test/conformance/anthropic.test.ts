import { afterEach, beforeEach } from 'vitest';
import { createAnthropicProvider } from '../../src/activities/models/anthropic-provider';
import {
  hang,
  message,
  nonJsonError,
  startFakeMessagesServer,
  text,
  toolUseBlock,
  type FakeMessagesServer,
  type ScriptEntry,
} from '../../src/testing';
import { defineProviderContract, type ContractScenario, type ProviderHarness } from './provider-contract';

/** The scenario as the fake Messages server says it. */
function scriptFor(scenario: ContractScenario): ScriptEntry {
  switch (scenario.kind) {
    case 'text':
      return text(scenario.text, { eventGapMs: 5 });
    case 'stop_sequence':
      return text(scenario.text, { stopReason: 'stop_sequence' });
    case 'max_tokens':
      return text(scenario.text, { stopReason: 'max_tokens', usage: { output_tokens: 8 } });
    case 'tool_call':
      return message([toolUseBlock(scenario.tool, scenario.input)]);
    case 'malformed':
      return nonJsonError(200, { contentType: 'application/json', body: '{"type": "message", "content": [' });
    case 'hang':
      return hang();
    case 'long_stream':
      return text(scenario.text, { eventGapMs: 20 });
  }
}

function useAnthropicOnFakeServer(): ProviderHarness {
  let server: FakeMessagesServer;
  const harness = {
    request: (overrides) => ({
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
      system: 'You are a careful assistant.',
      messages: [],
      tools: [],
      toolChoice: 'auto',
      maxTokens: 1024,
      ...overrides,
      // The Anthropic provider refuses sampling settings it cannot send (ModelSettingUnsupported).
      sampling: undefined,
    }),
    arrange: (scenario) => server.append([scriptFor(scenario)]),
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
