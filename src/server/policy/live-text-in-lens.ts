import type { ReasoningStep, ViewerRole, VisibilityLevel } from '../../domain';
import type { IncrementalChainView } from '../../domain/chain/chain-view';
import type { ViewLens } from '../../domain/visibility';

/** What a stream knows of the run's model call in progress: its `llm` call step. */
export interface LiveModelCall {
  correlationId: string;
  model: string;
  /** The level the run recorded for its model's steps (the call's, and the thoughts and answer it leads to). */
  level: VisibilityLevel;
}

/** Views that may show model text as it streams; an end user sees whole steps only. */
const STREAMS_TEXT: Record<ViewerRole, boolean> = { auditor: true, developer: true, end_user: false };

/** Stands in for a step's summary: a view that shows it shows the step at summary level, not its text. */
const SUMMARY_MARK = '\u0000summary';

const base = (level: VisibilityLevel) => ({
  stepId: 'live',
  stepNumber: 1,
  timestamp: new Date(0).toISOString(),
  iteration: 0,
  visibility: { level, summary: SUMMARY_MARK },
});

/**
 * The steps a live delta becomes once the reply is in: thinking text becomes a thinking step; the
 * reply's text becomes the model call's result and either a thought or the answer (not known
 * until the reply ends, so both).
 */
function stepsOf(kind: 'text' | 'thinking', call: LiveModelCall, probe: string): ReasoningStep[] {
  const thought: ReasoningStep = { ...base(call.level), type: 'thinking', thought: probe };
  if (kind === 'thinking') return [thought];
  const result: ReasoningStep = {
    ...base(call.level),
    type: 'tool_result',
    model: call.model,
    toolResult: { correlationId: call.correlationId, success: true, result: { text: probe }, durationMs: 0 },
  };
  const answer: ReasoningStep = {
    ...base(call.level),
    type: 'synthesis',
    synthesis: { sources: [], conclusion: probe },
  };
  return [thought, result, answer];
}

/** Whether the view shows `step` with its own text, not left out and not as its summary. */
function shownWhole(viewed: ReasoningStep | undefined): boolean {
  if (!viewed) return false;
  if (viewed.type === 'thinking') return viewed.thought !== SUMMARY_MARK;
  if (viewed.type === 'tool_result') return viewed.toolResult.result !== SUMMARY_MARK;
  return true;
}

/**
 * Whether a live delta of `kind` may be shown to this viewer: only when every step it becomes is
 * shown whole in their view and lens, as the run's own views decide (`viewer.step`). No model
 * call known yet, an end user's view, or a sub-agent's run shown as its summary: never. Fails
 * closed: text that could become a hidden thought waits for its step.
 */
export function liveTextShown(
  viewer: IncrementalChainView,
  call: LiveModelCall | undefined,
  kind: 'text' | 'thinking',
  view: ViewerRole,
  lens: ViewLens | undefined,
): boolean {
  if (!STREAMS_TEXT[view] || !call) return false;
  return stepsOf(kind, call, '').every((step) => shownWhole(viewer.step(step, view, lens)));
}

/**
 * Live text as the view shows the thought it becomes: secret-shaped text, and below the auditor's
 * view every sensitive value the run has seen (the tenant's masked ones included), redacted.
 */
export function liveTextInView(
  viewer: IncrementalChainView,
  call: LiveModelCall,
  text: string,
  view: ViewerRole,
  lens: ViewLens | undefined,
): string {
  const viewed = viewer.step({ ...base(call.level), type: 'thinking', thought: text }, view, lens);
  return viewed?.type === 'thinking' && viewed.thought !== SUMMARY_MARK ? viewed.thought : '';
}
