import type { AgentInputInit, AgentResult } from '../domain';
import { runAgent } from './run/run-agent';

/**
 * A durable ReAct agent. Deterministic: time and ids come from the workflow, all I/O from
 * activities. Not async itself: runAgent's promise is the run's (an async layer would be one more
 * promise the SDK takes a stack trace for).
 */
export function agentWorkflow(input: AgentInputInit): Promise<AgentResult> {
  return runAgent(input);
}
