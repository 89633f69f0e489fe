import type { ToolSpec } from '../../domain';

/**
 * An error observation of a tool ends by naming the tool's alternatives: describeTools kept only
 * those the run has, so the model is never pointed at a tool it cannot call. Pure.
 */
export function withAlternatives(spec: Pick<ToolSpec, 'alternatives'>, error: string): string {
  const names = spec.alternatives ?? [];
  return names.length ? `${error}\nInstead, you could try: ${names.join(', ')}.` : error;
}
