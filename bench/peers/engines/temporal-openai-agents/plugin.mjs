import { OpenAIAgentsPlugin } from '@temporalio/openai-agents';
import { createScriptedModelProvider } from './scripted-model.mjs';
import { installDiscardingTraceExporter } from './trace-processors.mjs';

/**
 * The plugin, installed on the worker (model activity, interceptors, bundle polyfills) and on the
 * client (its config header), as the package's README does. The model activity's timeout is the
 * bare engine's callModel timeout.
 */
export function createPlugin(config) {
  installDiscardingTraceExporter();
  return new OpenAIAgentsPlugin({
    modelProvider: createScriptedModelProvider(config),
    modelParams: { startToCloseTimeout: '1 minute' },
  });
}
