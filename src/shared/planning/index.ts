export * from './agent-memory';
export * from './plan-verdicts';
export * from './run-cache-settings';
export * from './workflow-template';
