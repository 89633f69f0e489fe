import { fileURLToPath } from 'node:url';
import { createStepMarks } from '../temporal/step-marks.mjs';
import { runToolStep } from '../temporal/tool-step.mjs';
import { createPlugin } from './plugin.mjs';

/**
 * Temporal's openai-agents samples bundle with these conditions: the plugin's workflow code is
 * CommonJS and requires @openai/agents-core's CommonJS build, so the workflow's own imports must
 * resolve to that build too (one RunState class, not two; no async chunks webpack cannot load).
 */
const bundlerOptions = {
  webpackConfigHook: (config) => ({
    ...config,
    resolve: { ...config.resolve, conditionNames: ['require', 'browser', 'default'] },
  }),
};

/**
 * The openai-agents engine's worker: its workflow, the `lookup` activity that activityAsTool calls
 * by name, and the plugin's model activity.
 */
export function workerOptions(config) {
  const mark = createStepMarks(config.marksDir);
  return {
    workflowsPath: fileURLToPath(new URL('./workflow.mjs', import.meta.url)),
    activities: { lookup: ({ n }) => runToolStep({ n, config, mark }) },
    plugins: [createPlugin(config)],
    bundlerOptions,
  };
}
