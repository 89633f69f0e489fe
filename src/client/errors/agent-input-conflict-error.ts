/** A start that names an agent and also sets what only its definition may: refused before anything starts. */
export class AgentInputConflictError extends TypeError {
  override readonly name = 'AgentInputConflictError';
}
