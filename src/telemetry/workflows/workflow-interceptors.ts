/**
 * The workflow bundle's telemetry interceptors (`interceptors.workflowModules`, or the bundler's
 * `workflowInterceptorModules`), bundled only when telemetry is on. Sandbox code: deterministic,
 * no Node module, no I/O. Spans are made by Temporal's OpenTelemetry interceptors and leave through
 * their `exporter` sink, ours through `thoughtlineTelemetry`; neither sink is called for replayed
 * history, and span ids come from the workflow's seeded random, so a replayed run re-creates the
 * same spans and exports none of them twice.
 */
import * as otel from '@opentelemetry/api';
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';
import {
  ContinueAsNew,
  defaultPayloadConverter,
  isCancellation,
  proxySinks,
  workflowInfo,
  type ActivityInput,
  type Headers,
  type LocalActivityInput,
  type ConcludeActivationInput,
  type ConcludeActivationOutput,
  type Next,
  type QueryInput,
  type SignalInput,
  type UpdateInput,
  type WorkflowExecuteInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptors,
  type WorkflowInternalsInterceptor,
  type WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';
import { AGENT_HEADER, Attr, Operation, TENANT_HEADER } from './attribute-names';
import { tenantLabel } from './tenant-label';
import type { RunFacts, TelemetrySinks } from './telemetry-sinks';
import { originalOf, typeOnlyAsync, typeOnlySync } from './type-only-errors';

/** Temporal's header for the trace context (`TRACE_HEADER` of the interceptors package). */
const TRACE_HEADER = '_tracer-data';

const sinks = proxySinks<TelemetrySinks>();

/** What the run's interceptors share: the run's span and context, and its facts once known. */
interface RunScope {
  span?: otel.Span;
  context?: otel.Context;
  facts?: RunFacts;
}

/**
 * Temporal's inbound interceptor with three changes: queries make no span (read-only, and `watch`
 * polls them); a signal or update sent without a trace context becomes a child of the run's span
 * instead of the root of a trace of its own; and the spans record an error's type, never its
 * message (a refused update's message quotes what its sender sent).
 */
class TracedInbound extends OpenTelemetryInboundInterceptor {
  constructor(private readonly scope: RunScope) {
    super();
  }

  override handleQuery(
    input: QueryInput,
    next: Next<WorkflowInboundCallsInterceptor, 'handleQuery'>,
  ): Promise<unknown> {
    return next(input);
  }

  override execute(
    input: WorkflowExecuteInput,
    next: Next<WorkflowInboundCallsInterceptor, 'execute'>,
  ): Promise<unknown> {
    return super.execute(input, typeOnlyAsync(next)).catch((err: unknown) => Promise.reject(originalOf(err)));
  }

  override handleSignal(
    input: SignalInput,
    next: Next<WorkflowInboundCallsInterceptor, 'handleSignal'>,
  ): Promise<void> {
    return this.underRun(input.headers, () => super.handleSignal(input, typeOnlyAsync(next))).catch((err: unknown) =>
      Promise.reject(originalOf(err)),
    );
  }

  override handleUpdate(
    input: UpdateInput,
    next: Next<WorkflowInboundCallsInterceptor, 'handleUpdate'>,
  ): Promise<unknown> {
    return this.underRun(input.headers, () => super.handleUpdate(input, typeOnlyAsync(next))).catch((err: unknown) =>
      Promise.reject(originalOf(err)),
    );
  }

  override validateUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'validateUpdate'>): void {
    try {
      this.underRun(input.headers, () => super.validateUpdate(input, typeOnlySync(next)));
    } catch (err) {
      throw originalOf(err);
    }
  }

  private underRun<T>(headers: Headers, fn: () => T): T {
    if (headers[TRACE_HEADER] !== undefined || !this.scope.context) return fn();
    return otel.context.with(this.scope.context, fn);
  }
}

/**
 * Thoughtline's attributes on the run's span (Temporal's `RunWorkflow`), the run's counts through
 * the sink, and approvals, answers, steering and cancels as events on the run's span.
 */
class RunInbound implements WorkflowInboundCallsInterceptor {
  constructor(private readonly scope: RunScope) {}

  async execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const facts = agentRunFacts(input.args[0]);
    // Other workflows of the bundle (the tenant quota) keep Temporal's spans and nothing more.
    if (!facts) return next(input);
    const info = workflowInfo();
    const span = otel.trace.getActiveSpan();
    Object.assign(this.scope, { span, context: otel.context.active(), facts });
    span?.setAttributes({
      [Attr.operationName]: Operation.invokeAgent,
      [Attr.agentName]: facts.agentName,
      [Attr.workflowId]: info.workflowId,
      [Attr.runKind]: facts.runKind,
      ...(facts.tenant ? { [Attr.tenant]: tenantLabel(facts.tenant) } : {}),
    });
    // A continued run is the same agent run: it was counted when it started.
    if (!info.continuedFromExecutionRunId) quietly(() => sinks.thoughtlineTelemetry.runStarted(facts));
    try {
      const result = await next(input);
      const ended = agentResultFacts(result);
      span?.setAttributes(ended);
      quietly(() =>
        sinks.thoughtlineTelemetry.runEnded({ ...facts, terminationReason: String(ended[Attr.terminationReason]) }),
      );
      return result;
    } catch (err) {
      if (err instanceof ContinueAsNew) {
        quietly(() => sinks.thoughtlineTelemetry.continuedAsNew(facts));
        throw err;
      }
      const terminationReason = isCancellation(err) ? 'cancelled' : 'error';
      span?.setAttribute(Attr.terminationReason, terminationReason);
      quietly(() => sinks.thoughtlineTelemetry.runEnded({ ...facts, terminationReason }));
      throw err;
    }
  }

  async handleUpdate(
    input: UpdateInput,
    next: Next<WorkflowInboundCallsInterceptor, 'handleUpdate'>,
  ): Promise<unknown> {
    const result = await next(input);
    const decision = input.args[0] as { callId?: unknown; approved?: unknown } | undefined;
    this.event(`thoughtline.update.${input.name}`, {
      [Attr.messageName]: input.name,
      ...(typeof decision?.callId === 'string' ? { [Attr.callId]: decision.callId } : {}),
      ...(typeof decision?.approved === 'boolean' ? { [Attr.approved]: decision.approved } : {}),
    });
    return result;
  }

  async handleSignal(input: SignalInput, next: Next<WorkflowInboundCallsInterceptor, 'handleSignal'>): Promise<void> {
    await next(input);
    // The signal's name only: a steering message is text the run's owner wrote.
    this.event(`thoughtline.signal.${input.signalName}`, { [Attr.messageName]: input.signalName });
  }

  private event(name: string, attributes: otel.Attributes): void {
    if (this.scope.span?.isRecording()) this.scope.span.addEvent(name, attributes);
  }
}

/** Every activity a run schedules carries its agent's name and tenant, for the activity side's metrics. */
class AgentHeaderOutbound implements WorkflowOutboundCallsInterceptor {
  constructor(private readonly scope: RunScope) {}

  scheduleActivity(
    input: ActivityInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>,
  ): Promise<unknown> {
    return next({ ...input, headers: this.withAgent(input.headers) });
  }

  scheduleLocalActivity(
    input: LocalActivityInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>,
  ): Promise<unknown> {
    return next({ ...input, headers: this.withAgent(input.headers) });
  }

  private withAgent(headers: Headers): Headers {
    const agent = this.scope.facts?.agentName;
    const tenant = this.scope.facts?.tenant;
    return {
      ...headers,
      ...(agent ? { [AGENT_HEADER]: defaultPayloadConverter.toPayload(agent) } : {}),
      ...(tenant ? { [TENANT_HEADER]: defaultPayloadConverter.toPayload(tenant) } : {}),
    };
  }
}

/**
 * At the end of each live workflow task, the run's facts and span go to the worker (a sink: no
 * command, nothing in history), which puts each recorded step's content span under the run's span.
 * Not on replay nor for queries (`isReplaying` is true for both), so `watch` polling costs nothing.
 */
class RunSpanInternals implements WorkflowInternalsInterceptor {
  constructor(private readonly scope: RunScope) {}

  concludeActivation(
    input: ConcludeActivationInput,
    next: Next<WorkflowInternalsInterceptor, 'concludeActivation'>,
  ): ConcludeActivationOutput {
    const { span, facts } = this.scope;
    if (span && facts && !workflowInfo().unsafe.isReplaying) {
      const { traceId, spanId, traceFlags } = span.spanContext();
      quietly(() => sinks.thoughtlineTelemetry.runSpan({ ...facts, traceId, spanId, traceFlags }));
    }
    return next(input);
  }
}

/** An agent run's input names its task; its agent name defaults as AgentInput's does. */
function agentRunFacts(input: unknown): RunFacts | undefined {
  if (typeof input !== 'object' || input === null || typeof (input as { task?: unknown }).task !== 'string')
    return undefined;
  const name = (input as { agentName?: unknown }).agentName;
  const tenant = (input as { caller?: { tenant?: unknown } }).caller?.tenant;
  const ancestors = delegatingAgents(input);
  return {
    agentName: typeof name === 'string' && name ? name : 'agent',
    runKind: workflowInfo().parent ? 'sub_agent' : 'root',
    ...(typeof tenant === 'string' && tenant ? { tenant } : {}),
    ...(ancestors.length ? { ancestors } : {}),
  };
}

/** The agents of a child run's delegation path other than the run itself (the path is bounded by the input's depth limit). */
function delegatingAgents(input: object): string[] {
  const path = (input as { delegation?: { path?: unknown } }).delegation?.path;
  if (!Array.isArray(path)) return [];
  const own = workflowInfo().workflowId;
  const names: string[] = [];
  for (const link of path as { agentName?: unknown; workflowId?: unknown }[])
    if (typeof link?.agentName === 'string' && link.workflowId !== own) names.push(link.agentName);
  return names;
}

/** The outcome of an AgentResult as span attributes: reason, cost, tokens, iterations. */
function agentResultFacts(result: unknown): otel.Attributes {
  const r = (typeof result === 'object' && result !== null ? result : {}) as {
    terminationReason?: unknown;
    costUsd?: unknown;
    iterations?: unknown;
    usage?: { inputTokens?: unknown; outputTokens?: unknown };
  };
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const facts: otel.Attributes = {
    [Attr.terminationReason]: typeof r.terminationReason === 'string' ? r.terminationReason : 'error',
  };
  const pairs: [string, number | undefined][] = [
    [Attr.costUsd, num(r.costUsd)],
    [Attr.iterations, num(r.iterations)],
    [Attr.inputTokens, num(r.usage?.inputTokens)],
    [Attr.outputTokens, num(r.usage?.outputTokens)],
  ];
  for (const [key, value] of pairs) if (value !== undefined) facts[key] = value;
  return facts;
}

/** Telemetry never fails a workflow task: a sink call only queues, but cloning an odd value could throw. */
function quietly(fn: () => void): void {
  try {
    fn();
  } catch {
    // Counts are best effort; the run's history is the record.
  }
}

export const interceptors = (): WorkflowInterceptors => {
  const scope: RunScope = {};
  return {
    // Temporal's first: its RunWorkflow span is active when ours runs.
    inbound: [new TracedInbound(scope), new RunInbound(scope)],
    outbound: [new OpenTelemetryOutboundInterceptor(), new AgentHeaderOutbound(scope)],
    internals: [new OpenTelemetryInternalsInterceptor(), new RunSpanInternals(scope)],
  };
};
