// A workflow of your own around Thoughtline's loop: the agent stops (reason `custom`) as soon
// as it has called `deploy`, or after 5 iterations, whichever comes first. Register this file's
// directory as the worker's workflowsPath; start it by name ('releaseAgent') with an AgentInput.
import type { AgentInputInit, AgentResult } from '../../src/domain';
import { anyOf, hasToolCall, isIterationCount, runAgent } from '../../src/workflows/sdk';

export async function releaseAgent(input: AgentInputInit): Promise<AgentResult> {
  return runAgent(input, { stopWhen: [anyOf(hasToolCall('deploy'), isIterationCount(5))] });
}
