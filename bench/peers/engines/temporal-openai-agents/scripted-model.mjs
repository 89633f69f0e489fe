// Worker side (Node): the ModelProvider the OpenAIAgentsPlugin's invokeModelActivity calls.
import { modelDelay, modelTurn } from '../lib/loop-script.mjs';
import { createStepMarks } from '../temporal/step-marks.mjs';
import { agentsCore } from './agents-core.mjs';
import { inputChars, toolResultsIn } from './input-items.mjs';
import { SCRIPTED_MODEL_NAME } from './model-name.mjs';

/**
 * An OpenAI Agents Model whose getResponse is the loop script's model step: it reads the input
 * items it is given, waits modelDelayMs and returns modelTurn's thought and function call, or the
 * answer. It runs inside the plugin's model activity, so the run (workflow id) for the marks comes
 * from the activity context. No network: nothing here talks to OpenAI.
 */
export function createScriptedModelProvider(config) {
  const mark = createStepMarks(config.marksDir);
  const model = {
    async getResponse(request) {
      const items = typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
      const index = toolResultsIn(items);
      mark('model', index, 'start');
      await modelDelay(config.modelDelayMs);
      const turn = modelTurn({
        toolResults: index,
        iterations: Number(request.modelSettings.providerData?.bench?.iterations),
        conversationChars: inputChars(items),
      });
      mark('model', index, 'end');
      return responseFor(turn);
    },
    // Never called: the runner streams only when asked to, and this workflow does not ask.
    async *getStreamedResponse() {
      throw new Error('the scripted model only answers whole responses');
    },
  };
  return {
    getModel(name) {
      if (name !== SCRIPTED_MODEL_NAME)
        throw new Error(`no model ${name}; this provider serves ${SCRIPTED_MODEL_NAME}`);
      return model;
    },
  };
}

/** The turn as a Responses-style output: the thought then the function call, or the answer alone. */
function responseFor(turn) {
  const usage = new agentsCore.Usage({
    requests: 1,
    inputTokens: turn.inputTokens,
    outputTokens: turn.outputTokens,
    totalTokens: turn.inputTokens + turn.outputTokens,
  });
  // The answer alone: finalOutput is the last assistant message's text and must equal answerFor(K).
  const text = turn.answer ?? turn.thought;
  const output = [
    { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] },
  ];
  if (turn.call) {
    output.push({
      type: 'function_call',
      callId: `call_${turn.call.input.n}`,
      name: turn.call.name,
      arguments: JSON.stringify(turn.call.input),
      status: 'completed',
    });
  }
  return { usage, output };
}
