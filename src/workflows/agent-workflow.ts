import type { AgentInputInit, AgentResult } from '../domain';
import { runAgent } from './run/run-agent';

/** A durable ReAct agent. Deterministic: time and ids come from the workflow, all I/O from activities. */
export async function agentWorkflow(input: AgentInputInit): Promise<AgentResult> {
  return runAgent(input);
}
