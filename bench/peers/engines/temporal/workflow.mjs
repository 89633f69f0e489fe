// Workflow code (sandboxed, bundled by the worker): the agent loop as Temporal's samples write it,
// a model activity given the messages so far, then a tool activity, until the model answers.
import { continueAsNew, proxyActivities, workflowInfo } from '@temporalio/workflow';

const { callModel } = proxyActivities({ startToCloseTimeout: '1 minute' });
// Thoughtline's tool activities heartbeat with a 5 s timeout, so this one does too: a worker that
// dies mid-call is noticed after 5 s, not after the 1 minute start-to-close timeout.
const { runTool } = proxyActivities({ startToCloseTimeout: '1 minute', heartbeatTimeout: '5 seconds' });

/**
 * `messages` and `maxInputTokens` are only set by continue-as-new: the history grows with every
 * activity's input and result, so the loop starts a fresh run carrying the conversation when the
 * server suggests it (Temporal's advice for long loops), under the same workflow id.
 */
export async function agentLoop({
  task,
  iterations,
  messages = [{ role: 'user', content: task }],
  maxInputTokens = 0,
}) {
  for (;;) {
    const turn = await callModel({ iterations, messages });
    maxInputTokens = Math.max(maxInputTokens, turn.inputTokens);
    if (turn.answer !== undefined) return { answer: turn.answer, maxInputTokens };
    messages.push({ role: 'assistant', content: turn.thought, toolCall: turn.call });
    const result = await runTool(turn.call);
    messages.push({ role: 'tool', toolName: turn.call.name, content: result });
    if (workflowInfo().continueAsNewSuggested) {
      await continueAsNew({ task, iterations, messages, maxInputTokens });
    }
  }
}
