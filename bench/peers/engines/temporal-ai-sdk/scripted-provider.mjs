// Worker side (Node): the AI SDK provider the AiSdkPlugin's invokeModel activity calls.
import { customProvider } from 'ai';
import { modelDelay, modelTurn } from '../lib/loop-script.mjs';
import { createStepMarks } from '../temporal/step-marks.mjs';
import { SCRIPTED_MODEL_ID } from './model-id.mjs';
import { promptChars, toolResultsIn } from './prompt.mjs';

/**
 * A LanguageModelV4 whose doGenerate is the loop script's model step: it reads the prompt it is
 * given, waits modelDelayMs and returns modelTurn's thought and call, or the answer. It runs inside
 * the plugin's invokeModel activity, so the run (workflow id) for the marks comes from the activity
 * context. A plain object rather than ai/test's MockLanguageModelV4, which keeps every call's
 * prompt in memory (hundreds of MB over a 1000-step run).
 */
export function createScriptedProvider(config) {
  const mark = createStepMarks(config.marksDir);
  const model = {
    specificationVersion: 'v4',
    provider: 'bench',
    modelId: SCRIPTED_MODEL_ID,
    supportedUrls: {},
    async doGenerate(options) {
      const index = toolResultsIn(options.prompt);
      mark('model', index, 'start');
      await modelDelay(config.modelDelayMs);
      const turn = modelTurn({
        toolResults: index,
        iterations: Number(options.providerOptions?.bench?.iterations),
        conversationChars: promptChars(options.prompt),
      });
      mark('model', index, 'end');
      return generateResult(turn);
    },
    async doStream() {
      throw new Error('the scripted model only generates');
    },
  };
  return customProvider({ languageModels: { [SCRIPTED_MODEL_ID]: model } });
}

/** The turn as a provider's response: thought text then the tool call, or the answer alone. */
function generateResult(turn) {
  const usage = {
    inputTokens: { total: turn.inputTokens, noCache: turn.inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: turn.outputTokens, text: turn.outputTokens, reasoning: 0 },
  };
  if (turn.answer !== undefined) {
    // The answer alone: result.text joins a step's text parts and must equal answerFor(iterations).
    return {
      content: [{ type: 'text', text: turn.answer }],
      finishReason: { unified: 'stop', raw: 'end_turn' },
      usage,
      warnings: [],
    };
  }
  return {
    content: [
      { type: 'text', text: turn.thought },
      {
        type: 'tool-call',
        toolCallId: `call_${turn.call.input.n}`,
        toolName: turn.call.name,
        input: JSON.stringify(turn.call.input),
      },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage,
    warnings: [],
  };
}
