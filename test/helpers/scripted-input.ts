import type { AgentInputInit } from '../../src/domain';

/** The model a run names to be served by the scripted provider; which script answers is up to the test's worker. */
export const SCRIPTED_MODEL = { provider: 'scripted', model: 'scripted-model' } as const;

/** A run of the scripted model with the given task. */
export const scriptedInput = (task: string, extra: Partial<AgentInputInit> = {}): AgentInputInit => ({
  task,
  model: SCRIPTED_MODEL,
  ...extra,
});
