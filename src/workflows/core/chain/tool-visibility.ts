import type { AgentInput, ToolSpec, Visibility } from '../../../domain';
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
