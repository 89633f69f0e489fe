import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The one ReAct loop every engine runs (npm run bench:peers). The model is scripted and
 * stateless: it reads the conversation it is given, asks for `lookup` with n = 1, 2, … until
 * the conversation holds `iterations` tool results, then answers. A thought comes with every
 * call. The tool returns an observation of exactly `observationBytes` bytes. Engines differ only
 * in what they make durable around these two functions.
 */
export const TOOL_NAME = 'lookup';

/** What every engine's run must return, word for word. */
export const answerFor = (iterations) => `Called ${TOOL_NAME} ${iterations} times.`;

/**
 * The model's next turn, from how many tool results the conversation holds.
 * @returns {{ thought: string, call?: { name: string, input: { n: number } }, answer?: string, inputTokens: number, outputTokens: number }}
 */
export function modelTurn({ toolResults, iterations, conversationChars }) {
  const usage = { inputTokens: tokensOf(conversationChars), outputTokens: 20 };
  if (toolResults < iterations) {
    const n = toolResults + 1;
    return {
      thought: `Step ${n} of ${iterations}: calling ${TOOL_NAME}.`,
      call: { name: TOOL_NAME, input: { n } },
      ...usage,
    };
  }
  return { thought: 'Every step is done.', answer: answerFor(iterations), ...usage };
}

/** Roughly four characters a token, as the providers' own estimates go. */
export const tokensOf = (chars) => Math.ceil(chars / 4);

/** The tool's observation for call n: ASCII, exactly `bytes` long (at least its label). */
export function observation(n, bytes) {
  const label = `result ${n}: `;
  return label + 'x'.repeat(Math.max(0, bytes - label.length));
}

/** The model's latency; the tool is instant unless the scenario slows one call down. */
export const modelDelay = (ms) => (ms > 0 ? sleep(ms) : Promise.resolve());
