import { hang, httpError, text, toolUse, type ChatScriptEntry } from '../../src/testing/openai';
import type { ContractScenario } from './provider-contract';

/** The scenario as the fake Chat Completions server says it. */
export function chatScriptFor(scenario: ContractScenario): ChatScriptEntry {
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
