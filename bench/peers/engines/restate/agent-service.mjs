import * as restate from '@restatedev/restate-sdk';
import { modelDelay, modelTurn, observation } from '../lib/loop-script.mjs';
import { createMarks } from '../lib/marks.mjs';
import { assistantMessage, charsOf, toolMessage, toolResultsIn, userTask } from './conversation.mjs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The ReAct loop as a Restate service: the handler is the loop, every model call and every tool
 * call a `ctx.run` step whose result Restate journals before the handler goes on.
 * Input: { runId, iterations, modelDelayMs, observationBytes, marked, killAt?, slowToolMs? }.
 * `name` is unique per engine-script invocation so runs never share a service.
 */
export function agentService(name, { marksDir, options } = {}) {
  const marks = marksDir ? createMarks(marksDir) : null;
  return restate.service({
    name,
    handlers: {
      async run(ctx, input) {
        const { runId, iterations, modelDelayMs, observationBytes } = input;
        const mark = input.marked && marks ? (kind, i, phase) => marks.mark(runId, kind, i, phase) : () => {};
        const conversation = [userTask(iterations)];
        let maxInputTokens = 0;
        for (let i = 0; ; i++) {
          const turn = await ctx.run(`model ${i}`, async () => {
            mark('model', i, 'start');
            await modelDelay(modelDelayMs);
            const result = modelTurn({
              toolResults: toolResultsIn(conversation),
              iterations,
              conversationChars: charsOf(conversation),
            });
            mark('model', i, 'end');
            return result;
          });
          maxInputTokens = Math.max(maxInputTokens, turn.inputTokens);
          conversation.push(assistantMessage(turn));
          if (turn.answer !== undefined) return { answer: turn.answer, maxInputTokens };

          const n = turn.call.input.n;
          const result = await ctx.run(`tool ${n}`, async () => {
            mark('tool', n, 'start');
            // The recover scenario's slow call: the endpoint gets killed while it sleeps.
            if (n === input.killAt && input.slowToolMs > 0) await sleep(input.slowToolMs);
            const text = observation(n, observationBytes);
            mark('tool', n, 'end');
            return text;
          });
          conversation.push(toolMessage(n, result));
        }
      },
    },
    options,
  });
}
