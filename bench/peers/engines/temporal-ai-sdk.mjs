// The @temporalio/ai-sdk engine: the AI SDK's generateText loop inside a Temporal workflow, the
// AiSdkPlugin's model activity over a scripted model, the tool as an activity
// (temporal-ai-sdk/workflow.mjs). Scenarios are shared with the bare engine (temporal/scenarios.mjs).
import { main, versionOf } from './lib/engine-io.mjs';
import { temporalScenarios } from './temporal/scenarios.mjs';

await main(
  temporalScenarios({
    name: 'temporal-ai-sdk',
    version: `${versionOf('@temporalio/ai-sdk')}, ${versionOf('ai')}`,
    workflowType: 'aiSdkAgent',
    workerModule: new URL('./temporal-ai-sdk/worker-options.mjs', import.meta.url).href,
  }),
);
