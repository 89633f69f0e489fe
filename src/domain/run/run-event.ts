import { z } from 'zod';
import { ApprovalRecord } from '../approval/approval';
import { ChainStatus, ReasoningStep } from '../chain/chain';
import { RunEnding } from './run-ending';
import { SubAgentRun } from '../agents/sub-agent';
import { ToolProgress } from '../tools/tool-progress';

/**
 * What a run publishes as it goes, in the reference design's shape: a type, the run (workflow id)
 * and the chain's status. Steps are the raw recorded step; the server applies each watcher's
 * view before sending. `stepNumber` on every event is the last step recorded when it was
 * published, which is what a resuming client's `Last-Event-ID` names.
 */
const Base = z.object({
  runId: z.string().min(1),
  chainStatus: ChainStatus,
  stepNumber: z.number().int().nonnegative(),
});

export const RunEvent = z.discriminatedUnion('type', [
  Base.extend({ type: z.literal('step'), step: ReasoningStep }),
  Base.extend({ type: z.literal('status') }),
  Base.extend({ type: z.literal('approval'), approval: ApprovalRecord }),
  Base.extend({ type: z.literal('sub_agent'), subAgent: SubAgentRun }),
  Base.extend({
    type: z.literal('text_delta'),
    /** The model call (activity id and attempt); a retry starts a fresh reply. */
    activityId: z.string(),
    attempt: z.number().int().positive(),
    kind: z.enum(['text', 'thinking']),
    /** Where `text` starts in the whole reply, so a client can tell a gap from a repeat. */
    offset: z.number().int().nonnegative(),
    text: z.string(),
  }),
  Base.extend({
    type: z.literal('tool_progress'),
    /** The tool call's attempt (activity id and attempt); a retry starts its count again. */
    activityId: z.string(),
    attempt: z.number().int().positive(),
    /** The run's tool call step: a watcher sees the progress only where its view shows that step. */
    stepId: z.string().min(1),
    toolName: z.string(),
    /** The attempt's running count of updates, from 1: a client keeps the highest. */
    seq: z.number().int().positive(),
  }).merge(ToolProgress),
  Base.extend({
    type: z.literal('end'),
    /**
     * As the workflow publishes it: Temporal's word (`continued` at a handover). As the server
     * sends it to a watcher: the ending's state, so a run that ended with `failure` says `failed`.
     */
    outcome: z.enum(['completed', 'failed', 'cancelled', 'terminated', 'timed_out', 'continued']),
    /** Added by the server for each watcher, in their view: how the run ended (never published by a workflow). */
    ending: RunEnding.optional(),
  }),
]);
export type RunEvent = z.infer<typeof RunEvent>;
export type RunEventType = RunEvent['type'];

/**
 * A running sub-agent's step on its parent's event stream (never published by a workflow: the
 * server follows the child and sends each step in the watcher's view and lens of the child).
 * `runId` is the watched run; `subAgent.path` runs from its child down to this one.
 */
export const SubAgentStepEvent = Base.extend({
  type: z.literal('sub_agent_step'),
  subAgent: z.object({
    workflowId: z.string(),
    agentName: z.string(),
    callId: z.string(),
    path: z.array(z.string()).min(1),
  }),
  /** The child's step and its chain's status; `stepNumber` is the child's step's. */
  step: ReasoningStep,
});
export type SubAgentStepEvent = z.infer<typeof SubAgentStepEvent>;
