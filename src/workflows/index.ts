/** Entry point of the workflow bundle: every export here is a workflow type. */
export { agentWorkflow } from './agent-workflow';
export { tenantQuotaWorkflow } from './tenant-quota/tenant-quota-workflow';
export { runScoresWorkflow } from './scores/run-scores-workflow';
