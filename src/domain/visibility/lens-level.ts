import { canonicalJson } from '../approval/arguments-hash';
import type { ReasoningStep, VisibilityLevel } from '../chain/chain';
import type { StepKind } from './visibility-policy';
import { narrowestLevel } from './narrowest-level';
import { callKind, stepKind, type CallKindFacts } from './step-kind';
import { ownEntry, type PolicyLayer, type ViewLens } from './view-lens';

/** Whether the lens narrows nothing and masks nothing: a view with it is the view without it. */
export function isEmptyLens(lens: ViewLens | undefined): boolean {
  if (!lens) return true;
  return (
    Object.keys(lens.steps).length === 0 &&
    Object.keys(lens.tools).length === 0 &&
    Object.keys(lens.toolTypes).length === 0 &&
    Object.keys(lens.sensitiveFields).length === 0 &&
    lens.subChains === undefined
  );
}

/**
 * The lens as a cache key: equal lenses give equal keys whatever their keys' order. Made afresh on
 * every call (never remembered per object), so a lens changed after use can never find an old view.
 */
export function lensKey(lens: ViewLens | undefined): string {
  return !lens || isEmptyLens(lens) ? '' : canonicalJson(lens);
}

/** The narrowest `result` level any tool or tool type rule of the lens sets. */
function narrowestResultRule(lens: ViewLens): VisibilityLevel | undefined {
  let level: VisibilityLevel | undefined;
  for (const rule of Object.values(lens.tools)) level = narrowestLevel(level, rule.result);
  for (const rule of Object.values(lens.toolTypes)) level = narrowestLevel(level, rule?.result);
  return level;
}

/**
 * The level the lens allows `step` (undefined: it does not limit it): its kind's level, its
 * tool's and its tool type's. A result whose call the view never saw (facts kept before they
 * named the tool) takes the narrowest result rule of the lens: unknown never shows more.
 */
export function lensLevel(
  step: ReasoningStep,
  facts: ReadonlyMap<string, CallKindFacts>,
  lens: ViewLens,
): VisibilityLevel | undefined {
  let level = lens.steps[stepKind(step, facts)];
  if (step.type === 'tool_call') {
    const { toolName, toolType } = step.toolCall;
    level = narrowestLevel(level, ownEntry(lens.tools, toolName)?.call);
    level = narrowestLevel(level, lens.toolTypes[toolType]?.call);
  } else if (step.type === 'tool_result') {
    const call = facts.get(step.toolResult.correlationId);
    if (call?.toolName === undefined || call.toolType === undefined)
      return narrowestLevel(level, narrowestResultRule(lens));
    level = narrowestLevel(level, ownEntry(lens.tools, call.toolName)?.result);
    level = narrowestLevel(level, lens.toolTypes[call.toolType]?.result);
  }
  return level;
}

/** The tenant's extra sensitive fields for calls of `toolName`, merged with the call's own. */
export function withTenantFields(
  own: readonly string[],
  toolName: string | undefined,
  lens: ViewLens | undefined,
): readonly string[] {
  const tenant = lens ? ownEntry(lens.sensitiveFields, toolName) : undefined;
  if (!tenant || tenant.length === 0) return own;
  return [...new Set([...own, ...tenant])];
}

/**
 * The level the lens allows a call known by its facts (an approval's call): its kind's, tool's and
 * tool type's; a call of unknown type takes the narrowest any type or kind of call could have.
 */
export function callLensLevel(
  call: CallKindFacts | undefined,
  toolName: string,
  lens: ViewLens,
): VisibilityLevel | undefined {
  let level = lens.steps[callKind(call?.toolType)];
  level = narrowestLevel(level, ownEntry(lens.tools, call?.toolName ?? toolName)?.call);
  if (call?.toolType !== undefined) return narrowestLevel(level, lens.toolTypes[call.toolType]?.call);
  // Its type unknown: the narrowest call rule of any type, and of any kind of call.
  for (const rule of Object.values(lens.toolTypes)) level = narrowestLevel(level, rule?.call);
  for (const kind of ['model_call', 'sub_agent'] as const) level = narrowestLevel(level, lens.steps[kind]);
  return level;
}

/**
 * Which layer decided a step's level, for a notice that says why it shows less: the lens's layer
 * for its kind when it is security, role or preference and set the effective level; else the tool
 * (the level the run recorded) when that is as narrow; else the platform's. Undefined when the
 * step shows in full. The order is seed 002's: security, role, preference, tool, platform.
 */
export function decidingLayer(
  kind: StepKind,
  recorded: VisibilityLevel,
  lens: ViewLens | undefined,
): PolicyLayer | undefined {
  const byLens = lens?.steps[kind];
  const effective = narrowestLevel(recorded, byLens) ?? recorded;
  if (effective === 'full') return undefined;
  const layer = lens?.decidedBy[kind];
  if (byLens === effective && (layer === 'security' || layer === 'role' || layer === 'preference')) return layer;
  if (recorded === effective) return 'tool';
  return layer ?? 'platform';
}
