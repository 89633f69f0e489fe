import { modelDelay, modelTurn } from '../lib/loop-script.mjs';
import { conversationChars, toolResultsIn } from './conversation.mjs';
import { createStepMarks } from './step-marks.mjs';
import { runToolStep } from './tool-step.mjs';

/**
 * The bare engine's two activities. `config` is the worker's share of the request: marksDir,
 * modelDelayMs, observationBytes, and for recover killAt and slowToolMs.
 */
export function createActivities(config) {
  const mark = createStepMarks(config.marksDir);
  return {
    /** One model call, given the whole conversation so far (what a real chat API receives). */
    async callModel({ iterations, messages }) {
      const index = toolResultsIn(messages);
      mark('model', index, 'start');
      await modelDelay(config.modelDelayMs);
      const turn = modelTurn({ toolResults: index, iterations, conversationChars: conversationChars(messages) });
      mark('model', index, 'end');
      return turn;
    },
    /** One tool call, as the model asked for it. */
    async runTool(call) {
      return runToolStep({ n: call.input.n, config, mark });
    },
  };
}
