import * as otel from '@opentelemetry/api';
import type { Context as ActivityContext } from '@temporalio/activity';
import { ApplicationFailure, defaultPayloadConverter, type Headers } from '@temporalio/common';
import type {
  ActivityExecuteInput,
  ActivityInboundCallsInterceptor,
  ActivityInterceptorsFactory,
  Next,
} from '@temporalio/worker';
import type { ModelReply } from '../domain';
import { callStart, modelCallEnd, toolCallEnd, type CallStart } from './gen-ai-calls';
import type { Telemetry } from './start-telemetry';
import { AGENT_HEADER, Attr, TENANT_HEADER } from './workflows/attribute-names';
import { tenantLabel } from './workflows/tenant-label';

/**
 * One span per activity attempt, a child of the workflow's `StartActivity` span (the context
 * comes in the activity's headers): `chat <model>` for model calls and `execute_tool <tool>` for
 * tool calls, with the GenAI attributes, plus their latency, tokens and cost as metrics. Put it
 * outermost: failures reach it already classified and redacted, and it records only their type.
 */
export function activityTelemetry(telemetry: Telemetry): ActivityInterceptorsFactory {
  // An optional peer, required only once telemetry is on (loadTelemetry).
  const { extractContextFromHeaders } =
    require('@temporalio/interceptors-opentelemetry/lib/instrumentation') as Instrumentation;
  return (ctx) => ({ inbound: new ActivityTelemetryInbound(ctx, telemetry, extractContextFromHeaders) });
}

type Instrumentation = typeof import('@temporalio/interceptors-opentelemetry/lib/instrumentation');

class ActivityTelemetryInbound implements ActivityInboundCallsInterceptor {
  constructor(
    private readonly ctx: ActivityContext,
    private readonly telemetry: Telemetry,
    private readonly extractContextFromHeaders: Instrumentation['extractContextFromHeaders'],
  ) {}

  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const { info } = this.ctx;
    const call = callStart(info.activityType, input.args[0]);
    const agent = headerText(input.headers, AGENT_HEADER);
    const tenant = headerText(input.headers, TENANT_HEADER);
    const who: otel.Attributes = {
      ...(agent ? { [Attr.agentName]: agent } : {}),
      ...(tenant ? { [Attr.tenant]: tenantLabel(tenant) } : {}),
    };
    const attributes: otel.Attributes = {
      ...call.attributes,
      [Attr.activityType]: info.activityType,
      [Attr.attempt]: info.attempt,
      ...(info.workflowExecution ? { [Attr.workflowId]: info.workflowExecution.workflowId } : {}),
      ...who,
    };
    const parent = this.extractContextFromHeaders(input.headers) ?? otel.context.active();
    const started = performance.now();
    return this.telemetry.tracer.startActiveSpan(
      call.spanName,
      { kind: call.spanKind, attributes },
      parent,
      async (span) => {
        try {
          const result = await next(input);
          const ended = call.kind === 'model' ? modelCallEnd(result) : call.kind === 'tool' ? toolCallEnd(result) : {};
          span.setAttributes(ended);
          this.measure(call, who, started, undefined, result);
          return result;
        } catch (err) {
          const type = errorType(err);
          // The type only: a failure's message can quote a tool's arguments or a provider's reply.
          span.setAttribute(Attr.errorType, type);
          span.setStatus({ code: otel.SpanStatusCode.ERROR, message: type });
          this.measure(call, who, started, type, undefined);
          throw err;
        } finally {
          span.end();
        }
      },
    );
  }

  /** `run`: the agent's name and the tenant, labels of every metric a run's call records. */
  private measure(
    call: CallStart,
    run: otel.Attributes,
    started: number,
    error: string | undefined,
    result: unknown,
  ): void {
    const { metrics } = this.telemetry;
    const seconds = (performance.now() - started) / 1000;
    const who = { ...run, ...(error ? { [Attr.errorType]: error } : {}) };
    if (call.kind === 'tool') {
      metrics.toolDuration.record(seconds, { [Attr.toolName]: call.attributes[Attr.toolName], ...who });
      return;
    }
    if (call.kind !== 'model') return;
    const model = {
      [Attr.providerName]: call.attributes[Attr.providerName],
      [Attr.requestModel]: call.attributes[Attr.requestModel],
    };
    metrics.modelDuration.record(seconds, {
      [Attr.operationName]: call.attributes[Attr.operationName],
      ...model,
      ...who,
    });
    if (error) return;
    const reply = result as Partial<ModelReply>;
    const spend = { ...model, ...run };
    const usage = reply.usage;
    if (usage) {
      const byType = {
        input: usage.inputTokens,
        output: usage.outputTokens,
        cache_read: usage.cacheReadTokens,
        cache_write: usage.cacheWriteTokens,
      };
      for (const [type, count] of Object.entries(byType))
        if (count > 0) metrics.tokens.add(count, { ...spend, [Attr.tokenType]: type });
    }
    if (typeof reply.costUsd === 'number' && reply.costUsd > 0) metrics.cost.add(reply.costUsd, spend);
  }
}

/** The agent's name or tenant, set by the workflow interceptor; absent for activities started elsewhere. */
function headerText(headers: Headers, name: string): string | undefined {
  const payload = headers[name];
  if (!payload) return undefined;
  try {
    const name: unknown = defaultPayloadConverter.fromPayload(payload);
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

/** A failure's stable type (Thoughtline's FailureType), `cancelled`, or the error's class name. */
function errorType(err: unknown): string {
  if (err instanceof ApplicationFailure && err.type) return err.type;
  if (err instanceof Error)
    return err.name === 'CancelledFailure' || err.name === 'AbortError' ? 'cancelled' : err.name;
  return 'unknown';
}
