import { defineQuery } from '@temporalio/workflow';
import type { AgentStatus, ReasoningChain } from '../shared';

/** The live reasoning chain of a run (also served after it ended). */
export const chainQuery = defineQuery<ReasoningChain>('chain');
/** A small status record, cheap to poll. */
export const statusQuery = defineQuery<AgentStatus>('status');
