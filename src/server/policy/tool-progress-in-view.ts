import type { ReasoningStep, ViewerRole } from '../../domain';
import type { IncrementalChainView } from '../../domain/chain/chain-view';
import type { RunEvent } from '../../domain/run/run-event';
import type { ViewLens } from '../../domain/visibility';

export type ToolProgressRunEvent = Extract<RunEvent, { type: 'tool_progress' }>;

/** Stands in for the call's arguments: a view that keeps it shows the call step whole. */
const WHOLE_MARK = '\u0000whole';

/**
 * A tool's progress as this viewer may see it, decided by its call step as the run's views show
 * it (`viewer.step`, lens included): shown whole → the update, its text redacted as the view
 * redacts; shown as its summary → the tool's name and fraction only; left out, or a call the
 * stream does not know (yet, or any more) → nothing. Fails closed.
 */
export function toolProgressInView(
  viewer: IncrementalChainView,
  callStep: ReasoningStep | undefined,
  event: ToolProgressRunEvent,
  view: ViewerRole,
  lens: ViewLens | undefined,
): ToolProgressRunEvent | undefined {
  if (callStep?.type !== 'tool_call' || callStep.toolCall.toolName !== event.toolName) return undefined;
  const probe = { ...callStep, toolCall: { ...callStep.toolCall, arguments: { [WHOLE_MARK]: WHOLE_MARK } } };
  const viewed = viewer.step(probe, view, lens);
  if (viewed?.type !== 'tool_call') return undefined;
  if (viewed.toolCall.arguments[WHOLE_MARK] === WHOLE_MARK) return viewer.redact(event, view);
  const { message: _message, data: _data, ...shape } = event;
  return shape;
}
