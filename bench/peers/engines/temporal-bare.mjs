// The bare Temporal SDK engine: the agent loop as Temporal's samples write it, a workflow calling
// a callModel activity then a runTool activity until the model answers (temporal/workflow.mjs).
import { main, versionOf } from './lib/engine-io.mjs';
import { temporalScenarios } from './temporal/scenarios.mjs';

await main(
  temporalScenarios({
    name: 'temporal-bare',
    version: versionOf('@temporalio/workflow'),
    workflowType: 'agentLoop',
    workerModule: new URL('./temporal/worker-options.mjs', import.meta.url).href,
  }),
);
