import type { AgentInput, NarrowedVisibility, ToolSpec, Visibility } from '../../../domain';
import { isNarrower } from '../../../domain/visibility/narrowest-level';
import { ownValue } from '../../../domain/text/own-value';
import { renderSummaryTemplate } from '../../../domain/visibility/summary-template';

/**
 * How a tool's steps are shown, most specific first: the run's setting for this tool, the run's
 * setting for its type, the tool's own. A `summary` step gets its line from the template, with
 * the arguments (and the result once there is one); sensitive fields never reach the line.
 */
export function toolStepVisibility(
  input: AgentInput,
  spec: ToolSpec,
  args: Record<string, unknown>,
  result?: unknown,
): Visibility {
  const setting = ownValue(input.visibilityByTool, spec.name) ?? ownValue(input.visibilityByToolType, spec.type);
  const level = setting?.level ?? spec.visibility;
  const template = setting?.summaryTemplate ?? spec.summaryTemplate;
  if (level !== 'summary') return { level };
  const summary = template
    ? renderSummaryTemplate(template, args, result, spec.sensitiveFields ?? [])
    : defaultSummary(spec, result);
  return { level, summary };
}

function defaultSummary(spec: ToolSpec, result: unknown): string {
  return result === undefined ? `Using ${spec.name}` : `Used ${spec.name}`;
}

/**
 * A result step's visibility once its tool asked to narrow it (ToolContext.narrowVisibility):
 * the narrower of the configured level and the tool's, so a tool can hide its result but never
 * show it wider than its own and the run's settings. A request no narrower is ignored.
 */
export function narrowedByTool(
  spec: ToolSpec,
  configured: Visibility,
  request: NarrowedVisibility | undefined,
): Visibility {
  if (!request || !isNarrower(request.level, configured.level)) return configured;
  if (request.level === 'hidden') return { level: 'hidden', narrowedBy: 'tool' };
  return { level: 'summary', summary: request.summary || defaultSummary(spec, true), narrowedBy: 'tool' };
}
