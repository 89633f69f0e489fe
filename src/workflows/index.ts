/** Entry point of the workflow bundle: every export here is a workflow type. */
export { agentWorkflow } from './agent-workflow';
export { tenantQuotaWorkflow } from './tenant-quota/tenant-quota-workflow';
export { evaluationWorkflow } from './eval/evaluation-workflow';
export { evaluationShardWorkflow } from './eval/evaluation-shard-workflow';
export { evaluationCaseWorkflow } from './eval/evaluation-case-workflow';
export { runScoresWorkflow } from './scores/run-scores-workflow';
export { agentMemoryWorkflow } from './memory/agent-memory-workflow';
export { threadWorkflow } from './threads/thread-workflow';
