import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { answerFor } from '../lib/loop-script.mjs';

/**
 * One run is one thread. Each iteration is two super-steps (agent, tools) and the answer one
 * more; the limit leaves room for long runs (the default of 25 would stop at 12 iterations).
 * Durability 'sync' saves each super-step's checkpoint before the next one starts, the guarantee
 * the other engines give; the default 'async' lets execution run ahead of PostgreSQL, and a
 * SIGKILL then loses the steps not yet saved (seen here: killed at tool 3, not even the input
 * checkpoint had landed, and invoke(null) ran an empty thread). request.durability overrides it.
 */
export function threadConfig(threadId, { iterations, durability = 'sync' }) {
  return {
    configurable: { thread_id: threadId, iterations },
    recursionLimit: Math.max(10_000, 2 * iterations + 10),
    durability,
  };
}

export const taskFor = (iterations) => `Call lookup ${iterations} times, then say how many times.`;

/** Starts a new thread with the user's task and waits for its final state. */
export async function startRun(graph, threadId, request) {
  const task = new HumanMessage(taskFor(request.iterations));
  return summarize(await graph.invoke({ messages: [task] }, threadConfig(threadId, request)));
}

/** Resumes a thread from its last checkpoint: null input on the same thread_id, as the docs say. */
export async function resumeRun(graph, threadId, request) {
  return summarize(await graph.invoke(null, threadConfig(threadId, request)));
}

/**
 * The answer (last message), the largest input the model computed (its usage metadata), and
 * what the conversation holds: the task it began with and the tool results' n in order.
 */
function summarize({ messages = [] }) {
  return {
    answer: messages.at(-1)?.content,
    maxInputTokens: Math.max(0, ...messages.map((m) => m.usage_metadata?.input_tokens ?? 0)),
    task: HumanMessage.isInstance(messages[0]) ? messages[0].content : null,
    toolResults: messages
      .filter((m) => ToolMessage.isInstance(m))
      .map((m) => Number(/^result (\d+):/.exec(m.content)?.[1])),
  };
}

/** A run is right when it answers the script's answer over one whole conversation: task, 1…K. */
export function checkRun(id, run, iterations) {
  const problems = [];
  if (run.answer !== answerFor(iterations)) problems.push(`answered ${JSON.stringify(run.answer)}`);
  if (run.task !== taskFor(iterations)) problems.push('the conversation does not begin with the task');
  if (run.toolResults.join() !== Array.from({ length: iterations }, (_, i) => i + 1).join())
    problems.push(`tool results ${run.toolResults.join(',')}`);
  if (problems.length) throw new Error(`run ${id} is wrong: ${problems.join('; ')}`);
}
