/** A definition that `defineAgent` or a worker's registry refuses: thrown where the agent is defined, never in a run. */
export class AgentDefinitionError extends Error {
  override readonly name = 'AgentDefinitionError';
}
