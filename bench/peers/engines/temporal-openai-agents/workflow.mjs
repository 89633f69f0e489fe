// Workflow code (sandboxed, bundled by the worker): @temporalio/openai-agents's documented pattern,
// an Agent run by TemporalOpenAIRunner (each model call is the plugin's model activity) with a tool
// made by activityAsTool (each call is the `lookup` activity).
import { Agent, RunState } from '@openai/agents-core';
import { activityAsTool, TemporalOpenAIRunner } from '@temporalio/openai-agents/workflow';
import { continueAsNew, workflowInfo } from '@temporalio/workflow';
import { SCRIPTED_MODEL_NAME } from './model-name.mjs';

// lib/loop-script.mjs's TOOL_NAME, written out: that module imports node:timers, which the
// workflow sandbox does not allow. It is also the activity's name, as activityAsTool requires.
const TOOL_NAME = 'lookup';

/**
 * The lookup tool. Thoughtline's tool activities heartbeat with a 5 s timeout, so this one does too.
 * The plugin has no continue-as-new of its own, so the tool asks for approval when the server
 * suggests continue-as-new: the run stops at that interruption with its RunState, and the
 * workflow continues as new with it, as the package's README does for approvals.
 */
function lookupTool() {
  const tool = activityAsTool(
    {
      name: TOOL_NAME,
      description: 'Looks up result n.',
      parameters: {
        type: 'object',
        properties: { n: { type: 'integer' } },
        required: ['n'],
        additionalProperties: false,
      },
    },
    { startToCloseTimeout: '1 minute', heartbeatTimeout: '5 seconds' },
  );
  return { ...tool, needsApproval: async () => workflowInfo().continueAsNewSuggested };
}

/** `runState` is only set by continue-as-new: the run so far, its pending lookup call to approve. */
export async function openAiAgent({ task, iterations, runState }) {
  const agent = new Agent({
    name: 'Lookup agent',
    model: SCRIPTED_MODEL_NAME,
    tools: [lookupTool()],
    // The scripted model reads the run's length here, as the ai-sdk engine's reads providerOptions.
    modelSettings: { providerData: { bench: { iterations } } },
  });
  const input = runState === undefined ? task : await approvedState(agent, runState);
  // K turns that call the tool, then the answering turn.
  const result = await new TemporalOpenAIRunner().run(agent, input, { maxTurns: iterations + 1 });
  if (result.interruptions.length > 0) await continueAsNew({ task, iterations, runState: result.state.toString() });
  const maxInputTokens = Math.max(0, ...result.rawResponses.map((r) => r.usage.inputTokens));
  return { answer: result.finalOutput, maxInputTokens };
}

async function approvedState(agent, serialized) {
  const state = await RunState.fromString(agent, serialized);
  for (const interruption of state.getInterruptions()) state.approve(interruption);
  return state;
}
