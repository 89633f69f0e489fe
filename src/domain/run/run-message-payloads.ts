import { z } from 'zod';
import { ApprovalRecord } from '../approval/approval';

/*
 * What the run's signals and updates accept (their definitions are in workflows/messages.ts).
 * Here, apart from the definitions, because this module is pure: the workflow bundle preloads it
 * once per V8 context instead of building these schemas again for every run.
 */

/** A short free text a sender may give as a string, number or boolean (older clients did); null means absent. */
const LooseText = z
  .union([z.string(), z.number(), z.boolean()])
  .nullish()
  .transform((value) => (value === null || value === undefined ? undefined : String(value)));

/** What the `cancel` handler accepts: no payload at all, or an object whose fields can become text. */
export const CancelRequestSchema = z
  .object({ reason: LooseText, by: LooseText })
  .optional()
  .transform((request) => ({ reason: request?.reason, by: request?.by }));

/** A person's answer to a stalled run's "continue?" question. */
export const StallDecision = z.object({
  continue: z.boolean(),
  by: z.string().optional(),
  note: z.string().optional(),
});
export type StallDecision = z.infer<typeof StallDecision>;

/** A sub-agent's report to its parent: the calls its tree waits on. */
export const SubAgentApprovals = z.object({ workflowId: z.string().min(1), pending: z.array(ApprovalRecord) });
export type SubAgentApprovals = z.infer<typeof SubAgentApprovals>;
