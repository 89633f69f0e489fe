export * from './agent-memory';
export * from './plan-verdicts';
export * from './run-cache-settings';
export * from './workflow-template';
export * from './cache-request';
export * from './goal-key';
export * from './cache-hit-text';
export * from './run-tenant';
