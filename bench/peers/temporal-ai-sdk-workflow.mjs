// Workflow code (sandboxed, bundled by the worker): @temporalio/ai-sdk's documented pattern,
// generateText with a Temporal-backed model (each model call is an activity) and a tool whose
// execute runs an activity.
import { proxyActivities } from '@temporalio/workflow';
import { temporalProvider } from '@temporalio/ai-sdk/workflow';
import { generateText, isStepCount, jsonSchema } from 'ai';
import { instantTool } from './instant-tool.mjs';

const { lookup } = proxyActivities({ startToCloseTimeout: '1 minute' });

/** K tool steps then one answering step, so the step limit is K + 1. */
export async function aiSdkAgent({ prompt, iterations, modelId }) {
  const result = await generateText({
    model: temporalProvider.languageModel(modelId),
    prompt,
    tools: {
      [instantTool.name]: {
        description: instantTool.description,
        inputSchema: jsonSchema({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }),
        execute: (input) => lookup(input),
      },
    },
    providerOptions: { bench: { iterations } },
    stopWhen: isStepCount(iterations + 1),
  });
  return { text: result.text, steps: result.steps.length };
}
