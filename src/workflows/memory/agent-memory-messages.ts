import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type {
  AgentMemoryView,
  ForgetMemoryRequest,
  ForgetMemoryResult,
  RememberLearningsRequest,
  RememberLearningsResult,
} from '../../domain/planning/agent-memory';

/** The workflow type of an agent's memory (one per tenant and agent; id from `memoryWorkflowId`). */
export const AGENT_MEMORY_WORKFLOW = 'agentMemoryWorkflow';

/**
 * Keeps a run's learnings; identical texts are kept once, the oldest entries dropped past the
 * limit. The validator refuses (nothing reaches history) a payload it cannot read.
 */
export const rememberLearningsUpdate = defineUpdate<RememberLearningsResult, [RememberLearningsRequest]>(
  'rememberLearnings',
);
/** Removes the entries named, or all of them. The validator refuses a payload it cannot read. */
export const forgetMemoryUpdate = defineUpdate<ForgetMemoryResult, [ForgetMemoryRequest]>('forgetMemory');
/** The memory now, newest last. Never throws. */
export const agentMemoryQuery = defineQuery<AgentMemoryView>('agentMemory');
