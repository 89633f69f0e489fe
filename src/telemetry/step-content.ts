import * as otel from '@opentelemetry/api';
import type { LoadedPolicy } from '../governance/load-visibility-policy';
import type { ReasoningStep, VisibilityLevel } from '../domain/chain/chain';
import { narrowestLevel } from '../domain/visibility/narrowest-level';
import { IncrementalChainView } from '../domain/chain/chain-view';
import type { ViewerRole } from '../domain/identity/people';
import type { RunEvent } from '../domain/run/run-event';
import { stepKind, type CallKindFacts } from '../domain/visibility/step-kind';
import { resolveViewLens, type ViewLens } from '../domain/visibility/view-lens';
import { boundedText } from './bounded-text';
import type { RunSpan, RunSpans } from './run-spans';
import { Attr } from './workflows/attribute-names';
import { tenantLabel } from './workflows/tenant-label';

/** Runs whose view one worker keeps; the oldest is forgotten first (its later steps are withheld). */
const MAX_VIEWS = 10_000;

/** What the worker keeps of one run to show its next step as the telemetry view would. */
interface RunView {
  chain: IncrementalChainView;
  lens: ViewLens;
  /** Each call's tool by correlation id: a result's kind is its call's. */
  calls: Map<string, CallKindFacts>;
  /** The step number this worker expects next; a gap means it missed steps (a run taken over). */
  next: number;
  /** False once a step was missed: the view lacks their sensitive fields, so no content is shown. */
  complete: boolean;
  /** How a sub-agent's own chain shows in its delegating agents' views (a root run: full). */
  asSubChain: VisibilityLevel;
}

/**
 * Content capture (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true): each recorded step
 * the worker publishes becomes one span under the run's span, named `step <type>`, with the
 * step's type, kind and text as the policy's `telemetry.view` shows it (default `developer`),
 * through resolveViewLens and IncrementalChainView like every other reader. A step that view
 * leaves out makes no span. Steps reach it as run events (a sink: nothing is added to history,
 * and nothing is called again on replay). Node only.
 */
export function createStepContent(tracer: otel.Tracer, runSpans: RunSpans, policy: LoadedPolicy | undefined) {
  const view: ViewerRole = policy?.policy.telemetry.view ?? 'developer';
  const views = new Map<string, RunView>();

  const lensFor = (agent: string, run: RunSpan): ViewLens =>
    resolveViewLens(policy?.policy, {
      view,
      agent,
      ...(run.tenant ? { tenant: run.tenant } : {}),
      ...(policy?.deployment ? { deployment: policy.deployment } : {}),
    });

  const viewOf = (workflowId: string, run: RunSpan, stepNumber: number): RunView => {
    let state = views.get(workflowId);
    if (!state) {
      // A sub-agent's steps show only as far as every agent above it lets its sub-chains show.
      let asSubChain: VisibilityLevel = 'full';
      for (const agent of run.ancestors ?? [])
        asSubChain = narrowestLevel(asSubChain, lensFor(agent, run).subChains) ?? asSubChain;
      state = {
        chain: new IncrementalChainView(),
        lens: lensFor(run.agentName, run),
        asSubChain,
        calls: new Map(),
        next: 1,
        complete: stepNumber === 1,
      };
      views.set(workflowId, state);
      if (views.size > MAX_VIEWS) views.delete(views.keys().next().value!);
    }
    return state;
  };

  const record = (workflowId: string, step: ReasoningStep): void => {
    const run = runSpans.get(workflowId);
    // No run span (a bundle without the interceptors): no orphan content span.
    if (!run) return;
    const state = viewOf(workflowId, run, step.stepNumber);
    if (step.stepNumber !== state.next) state.complete = false;
    state.next = step.stepNumber + 1;
    if (step.type === 'tool_call') {
      const { correlationId, toolType, toolName } = step.toolCall;
      state.calls.set(correlationId, { toolType, toolName });
    }
    state.chain.add(step);
    const shown = state.chain.step(step, view, state.lens);
    if (!shown || state.asSubChain === 'hidden') return;
    // A sub-chain shown as a summary shows none of its steps' text: the delegating run's result has the summary.
    const content = state.complete && state.asSubChain === 'full' ? boundedText(stepText(shown)) : undefined;
    const parent = otel.trace.setSpanContext(otel.ROOT_CONTEXT, {
      traceId: run.traceId,
      spanId: run.spanId,
      traceFlags: run.traceFlags,
      isRemote: true,
    });
    const at = Date.parse(step.timestamp);
    const span = tracer.startSpan(
      `step ${step.type}`,
      {
        kind: otel.SpanKind.INTERNAL,
        ...(Number.isFinite(at) ? { startTime: at } : {}),
        attributes: {
          [Attr.workflowId]: workflowId,
          [Attr.agentName]: run.agentName,
          ...(run.tenant ? { [Attr.tenant]: tenantLabel(run.tenant) } : {}),
          [Attr.view]: view,
          [Attr.stepNumber]: step.stepNumber,
          [Attr.stepType]: step.type,
          [Attr.stepKind]: stepKind(step, state.calls),
          ...(shown.type === 'tool_call' ? { [Attr.toolName]: shown.toolCall.toolName } : {}),
          ...(content
            ? { [Attr.stepContent]: content.text, [Attr.stepContentTruncated]: content.cut }
            : { [Attr.stepContentWithheld]: true }),
        },
      },
      parent,
    );
    span.end(Number.isFinite(at) ? at : undefined);
  };

  return {
    /** Every run event this worker publishes, in order. */
    observe(event: RunEvent): void {
      if (event.type === 'step') record(event.runId, event.step);
      else if (event.type === 'approval') views.get(event.runId)?.chain.addApproval(event.approval);
      else if (event.type === 'end' && event.outcome !== 'continued') {
        // A continued run keeps its view: its steps go on numbering from where they were.
        views.delete(event.runId);
        runSpans.forget(event.runId);
      }
    },
  };
}

export type StepContent = ReturnType<typeof createStepContent>;

/** A viewed step's text: the thought, the call's arguments, the result (or its error), the answer. */
function stepText(step: ReasoningStep): string {
  switch (step.type) {
    case 'thinking':
      return step.thought;
    case 'tool_call':
      return JSON.stringify(step.toolCall.arguments);
    case 'tool_result': {
      const { error, result } = step.toolResult;
      if (error !== undefined) return error;
      return typeof result === 'string' ? result : (JSON.stringify(result) ?? '');
    }
    case 'synthesis':
      return step.synthesis.conclusion;
  }
}
