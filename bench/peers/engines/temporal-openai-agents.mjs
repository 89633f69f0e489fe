// The @temporalio/openai-agents engine: an OpenAI Agents SDK Agent run by TemporalOpenAIRunner in a
// Temporal workflow, the OpenAIAgentsPlugin's model activity over a scripted model, the tool an
// activity via activityAsTool (temporal-openai-agents/workflow.mjs). The plugin is installed on
// worker and client. Scenarios are shared with the bare engine (temporal/scenarios.mjs).
import { main, versionOf } from './lib/engine-io.mjs';
import { temporalScenarios } from './temporal/scenarios.mjs';
import { createPlugin } from './temporal-openai-agents/plugin.mjs';

await main(
  temporalScenarios({
    name: 'temporal-openai-agents',
    version: `${versionOf('@temporalio/openai-agents')}, ${versionOf('@openai/agents-core')}`,
    workflowType: 'openAiAgent',
    workerModule: new URL('./temporal-openai-agents/worker-options.mjs', import.meta.url).href,
    clientPlugins: (config) => [createPlugin(config)],
  }),
);
