import { afterEach, beforeEach } from 'vitest';
import { createOpenAICompatibleProvider } from '../../src/activities/models/openai-compatible-provider';
import {
  hang,
  httpError,
  startFakeOpenAIServer,
  text,
  toolUse,
  type ChatScriptEntry,
  type FakeOpenAIServer,
} from '../../src/testing/openai';
import { defineProviderContract, type ContractScenario, type ProviderHarness } from './provider-contract';

/** The scenario as the fake Chat Completions server says it. */
function scriptFor(scenario: ContractScenario): ChatScriptEntry {
  switch (scenario.kind) {
    case 'text':
      return text(scenario.text);
    case 'stop_sequence':
      // Chat Completions reports a stop sequence as an ordinary `stop`.
      return text(scenario.text);
    case 'max_tokens':
      return text(scenario.text, { finishReason: 'length', usage: { completion_tokens: 8 } });
    case 'tool_call':
      return toolUse(scenario.tool, scenario.input);
    case 'malformed':
      return httpError(200, { body: '{"choices": [', headers: { 'content-type': 'application/json' } });
    case 'hang':
      return hang();
    case 'long_stream':
      // One character per chunk: thousands of events, still streaming when the first delta aborts.
      return text(scenario.text, { chunkSize: 1 });
  }
}

function useOpenAICompatibleOnFakeServer(): ProviderHarness {
  let server: FakeOpenAIServer;
  const harness = {
    request: (overrides) => ({
      provider: 'openai-compatible',
      model: 'llama3.2',
      system: 'You are a careful assistant.',
      messages: [],
      tools: [],
      toolChoice: 'auto',
      maxTokens: 1024,
      ...overrides,
    }),
    arrange: (scenario) => server.append([scriptFor(scenario)]),
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
