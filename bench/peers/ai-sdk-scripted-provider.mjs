// Worker side (Node): the AI SDK model the AiSdkPlugin's invokeModel activity calls.
import { MockLanguageModelV4, MockProviderV4 } from 'ai/test';
import { finalAnswer, instantTool } from './instant-tool.mjs';

export const scriptedModelId = 'scripted';

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};

/**
 * The AI SDK's own mock model, scripted like Thoughtline's: it asks for the instant tool until
 * the prompt holds `iterations` tool results (passed by the workflow in providerOptions), then
 * answers. Deriving the turn from the prompt keeps it stateless, so concurrent runs and activity
 * retries see the same script.
 */
export function createScriptedProvider() {
  const model = new MockLanguageModelV4({
    provider: 'bench',
    modelId: scriptedModelId,
    doGenerate: async (options) => {
      const iterations = Number(options.providerOptions?.bench?.iterations);
      const seen = options.prompt.filter((m) => m.role === 'tool').length;
      if (seen < iterations) {
        return {
          content: [
            {
              type: 'tool-call',
              toolCallId: `call_${seen + 1}`,
              toolName: instantTool.name,
              input: JSON.stringify(instantTool.input),
            },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_use' },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: finalAnswer }],
        finishReason: { unified: 'stop', raw: 'end_turn' },
        usage,
        warnings: [],
      };
    },
  });
  return new MockProviderV4({ languageModels: { [scriptedModelId]: model } });
}
