import { fileURLToPath } from 'node:url';
import { AiSdkPlugin } from '@temporalio/ai-sdk';
import { createStepMarks } from '../temporal/step-marks.mjs';
import { runToolStep } from '../temporal/tool-step.mjs';
import { createScriptedProvider } from './scripted-provider.mjs';

/** The ai-sdk engine's worker: its workflow, the tool activity, and the plugin's model activity. */
export function workerOptions(config) {
  const mark = createStepMarks(config.marksDir);
  return {
    workflowsPath: fileURLToPath(new URL('./workflow.mjs', import.meta.url)),
    activities: { runTool: ({ n }) => runToolStep({ n, config, mark }) },
    plugins: [new AiSdkPlugin({ modelProvider: createScriptedProvider(config) })],
  };
}
