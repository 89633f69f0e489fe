// Workflow code (sandboxed, bundled by the worker): @temporalio/ai-sdk's documented pattern,
// generateText with temporalProvider (each model call is the plugin's invokeModel activity) and a
// tool whose execute runs an activity.
import { continueAsNew, proxyActivities, workflowInfo } from '@temporalio/workflow';
import { temporalProvider } from '@temporalio/ai-sdk/workflow';
import { generateText, isStepCount, jsonSchema } from 'ai';
import { SCRIPTED_MODEL_ID } from './model-id.mjs';

// lib/loop-script.mjs's TOOL_NAME, written out: that module imports node:timers, which the
// workflow sandbox does not allow.
const TOOL_NAME = 'lookup';

// Thoughtline's tool activities heartbeat with a 5 s timeout, so this one does too: a worker that
// dies mid-call is noticed after 5 s, not after the 1 minute start-to-close timeout.
const { runTool } = proxyActivities({ startToCloseTimeout: '1 minute', heartbeatTimeout: '5 seconds' });

const tools = {
  [TOOL_NAME]: {
    description: 'Looks up result n.',
    inputSchema: jsonSchema({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }),
    execute: (input) => runTool(input),
  },
};

/**
 * One generateText call runs the whole loop. The plugin has no continue-as-new of its own, so a
 * stop condition ends generateText when the server suggests continue-as-new (after that step's
 * tools ran), and the run continues as new with the messages so far; `messages` and
 * `maxInputTokens` are only set that way.
 */
export async function aiSdkAgent({
  task,
  iterations,
  messages = [{ role: 'user', content: task }],
  maxInputTokens = 0,
}) {
  const toolResults = messages.filter((m) => m.role === 'tool').length;
  const result = await generateText({
    model: temporalProvider.languageModel(SCRIPTED_MODEL_ID),
    messages,
    tools,
    providerOptions: { bench: { iterations } },
    // K tool steps then one answering step, less the steps earlier runs took.
    stopWhen: [isStepCount(iterations + 1 - toolResults), () => workflowInfo().continueAsNewSuggested],
  });
  for (const step of result.steps) maxInputTokens = Math.max(maxInputTokens, step.usage.inputTokens ?? 0);
  if (result.finishReason === 'stop') return { answer: result.text, maxInputTokens };
  if (!workflowInfo().continueAsNewSuggested) throw new Error(`generateText stopped with ${result.finishReason}`);
  await continueAsNew({ task, iterations, messages: [...messages, ...result.responseMessages], maxInputTokens });
}
