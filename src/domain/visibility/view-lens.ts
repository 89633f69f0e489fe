import { z } from 'zod';
import { ToolType, VisibilityLevel } from '../chain/chain';
import { ViewerRole } from '../identity/people';
import { narrowestLevel } from './narrowest-level';
import { preferenceCaps } from './preference-caps';
import {
  LevelsByKind,
  MAX_POLICY_ENTRIES,
  StepKind,
  ToolLevels,
  type VisibilityPolicy,
  type VisibilityRules,
} from './visibility-policy';
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

/** One layer's rules, named for `decidedBy`; several platform defaults share the name `platform`. */
interface NamedRules {
  layer: PolicyLayer;
  rules: Partial<VisibilityRules> | undefined;
}

/** The layers that apply to `request`, in the order that decides (the tool's own level is on each step). */
function layersFor(policy: VisibilityPolicy, request: LensRequest): NamedRules[] {
  const role = policy.roles[request.view];
  const deployment = request.deployment ?? policy.deployment;
  const preferences = request.preferences && role?.preferences !== false ? request.preferences : undefined;
  return [
    { layer: 'security', rules: policy.security },
    { layer: 'role', rules: role },
    { layer: 'preference', rules: preferences ? preferenceCaps(preferences) : undefined },
    { layer: 'platform', rules: policy.platform },
    { layer: 'platform', rules: ownEntry(policy.deployments, deployment) },
    { layer: 'platform', rules: ownEntry(policy.agents, request.agent) },
  ];
}

/** `record[key]` when the record itself holds it (an agent named `constructor` finds nothing inherited). */
export function ownEntry<T>(record: Readonly<Record<string, T>>, key: string | undefined): T | undefined {
  return key !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** Sets an own, enumerable entry, whatever the key (`__proto__` included). */
function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `into` narrowed by `levels` (call and result each to the narrower). */
function narrowTool(into: ToolLevels | undefined, levels: ToolLevels): ToolLevels {
  const call = narrowestLevel(into?.call, levels.call);
  const result = narrowestLevel(into?.result, levels.result);
  return { ...(call ? { call } : {}), ...(result ? { result } : {}) };
}

/**
 * The one place the policy is resolved: security, the view's role rules, the preference (when the
 * role allows preferences), the platform's, the deployment's and the agent's rules, each narrowing
 * (the tool's own level is already on each recorded step). No policy: an empty lens. Pure.
 */
export function resolveViewLens(policy: VisibilityPolicy | undefined, request: LensRequest): ViewLens {
  const lens: ViewLens = {
    view: request.view,
    steps: {},
    tools: {},
    toolTypes: {},
    sensitiveFields: {},
    summariesOnly: false,
    decidedBy: {},
  };
  if (!policy) return lens;
  const layers = layersFor(policy, request);
  for (const { rules } of layers) {
    if (!rules) continue;
    for (const kind of StepKind.options) {
      const level = narrowestLevel(lens.steps[kind], rules.steps?.[kind]);
      if (level) lens.steps[kind] = level;
    }
    for (const [name, levels] of Object.entries(rules.tools ?? {}))
      setOwn(lens.tools, name, narrowTool(ownEntry(lens.tools, name), levels));
    for (const type of ToolType.options) {
      const levels = rules.toolTypes?.[type];
      if (levels) lens.toolTypes[type] = narrowTool(lens.toolTypes[type], levels);
    }
    const subChains = narrowestLevel(lens.subChains, rules.subChains);
    if (subChains) lens.subChains = subChains;
  }
  // The first layer in the deciding order that set the level the kind ended at.
  for (const kind of StepKind.options) {
    const level = lens.steps[kind];
    const decided = layers.find(({ rules }) => level !== undefined && rules?.steps?.[kind] === level);
    if (decided) lens.decidedBy[kind] = decided.layer;
  }
  const preferences = layers.find(({ layer }) => layer === 'preference')?.rules;
  lens.summariesOnly = preferences !== undefined && request.preferences?.summariesOnly === true;
  const tenant = ownEntry(policy.tenants, request.tenant);
  if (tenant && request.view !== 'auditor')
    for (const [tool, fields] of Object.entries(tenant.sensitiveFields))
      setOwn(lens.sensitiveFields, tool, [...fields]);
  return lens;
}
