import { hang, message, nonJsonError, text, toolUseBlock, type ScriptEntry } from '../../src/testing';
import type { ContractScenario } from './provider-contract';

/** The scenario as the fake Messages server says it. */
export function messagesScriptFor(scenario: ContractScenario): ScriptEntry {
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
