/** The scripted model's id: the workflow asks temporalProvider for it, the worker's provider serves it. */
export const SCRIPTED_MODEL_ID = 'bench-scripted';
