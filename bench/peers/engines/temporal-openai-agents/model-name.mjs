/** The scripted model's name: the workflow's Agent declares it, the worker's ModelProvider serves it. */
export const SCRIPTED_MODEL_NAME = 'bench-scripted';
