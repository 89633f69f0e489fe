import type { ToolResult } from '../chain/chain';
import type { ToolSpec } from './tool-spec';

/**
 * What the chain records of a call, by the tool's `auditLevel` (absent: `full`). Pure; applied
 * where a known tool's steps are recorded, never to what the model reads. The history still holds
 * the activity's input and result (the payload codec protects them): the level governs the chain,
 * and so its views, exports and audit reports.
 */
export function auditMarker(spec: Pick<ToolSpec, 'auditLevel'>): string {
  return `[not recorded: audit level ${spec.auditLevel}]`;
}

function audited(spec: Pick<ToolSpec, 'auditLevel'>): boolean {
  return spec.auditLevel === 'basic' || spec.auditLevel === 'none';
}

/** A call's arguments as the chain records them: the marker under `basic` and `none`. */
export function auditedArguments(
  spec: Pick<ToolSpec, 'auditLevel'>,
  args: Record<string, unknown>,
): Record<string, unknown> {
  return audited(spec) ? { notRecorded: auditMarker(spec) } : args;
}

/** A value of the result as the chain records it (and a summary template may quote). */
export function auditedValue(spec: Pick<ToolSpec, 'auditLevel'>, value: unknown): unknown {
  return audited(spec) && value !== undefined && value !== null ? auditMarker(spec) : value;
}

/**
 * A result as the chain records it. `basic`: whether it succeeded, how long, how many attempts,
 * its outcome; its result and error text replaced by the marker. `none`: only the success flag
 * and outcome beside the marker (no time, attempts or flags).
 */
export function auditedResult(spec: Pick<ToolSpec, 'auditLevel'>, shown: ToolResult): ToolResult {
  if (!audited(spec)) return shown;
  const marker = auditMarker(spec);
  const base: ToolResult = {
    ...shown,
    result: shown.result === null || shown.result === undefined ? shown.result : marker,
    ...(shown.error !== undefined ? { error: marker } : {}),
  };
  if (spec.auditLevel === 'basic') return base;
  const { correlationId, success, result, error, outcome } = base;
  return {
    correlationId,
    success,
    result,
    durationMs: 0,
    ...(error !== undefined ? { error } : {}),
    ...(outcome ? { outcome } : {}),
  };
}
