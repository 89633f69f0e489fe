import * as otel from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { createMetricExporter, createSpanExporter } from './otlp-exporters';
import type { TelemetryConfig } from './telemetry-config';
import { createTelemetryMetrics, type TelemetryMetrics } from './telemetry-metrics';

/** The running OpenTelemetry SDK as a worker uses it. */
export interface Telemetry {
  readonly resource: Resource;
  readonly tracer: otel.Tracer;
  /** Receives the workflow side's spans (through Temporal's `exporter` sink); absent with traces off. */
  readonly spanProcessor?: SpanProcessor;
  readonly metrics: TelemetryMetrics;
  /** Whether recorded steps' content goes on spans (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT). */
  readonly captureContent: boolean;
  /** Exports what is buffered; the SDK keeps running. */
  flush(): Promise<void>;
  /** Exports what is buffered and stops the SDK. */
  shutdown(): Promise<void>;
}

const SCOPE = 'thoughtline';

/**
 * Starts the SDK for the signals `config` names. The tracer provider is registered globally: its
 * context manager and W3C propagator are what carry a run's trace into its activities. Meters stay
 * private to Thoughtline. Node only.
 */
export function startTelemetry(config: TelemetryConfig): Telemetry {
  // Optional peers, required only here: a process with telemetry off never loads them (loadTelemetry).
  const { Resource, envDetectorSync } =
    require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { MeterProvider, PeriodicExportingMetricReader } =
    require('@opentelemetry/sdk-metrics') as typeof import('@opentelemetry/sdk-metrics');
  const { BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { NodeTracerProvider } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  // Later resources win: the SDK's defaults, then ours, then OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES.
  const resource = Resource.default()
    .merge(new Resource({ 'service.name': 'thoughtline' }))
    .merge(envDetectorSync.detect());
  let tracerProvider: NodeTracerProvider | undefined;
  let spanProcessor: SpanProcessor | undefined;
  if (config.traces) {
    spanProcessor = new BatchSpanProcessor(createSpanExporter(config.traces));
    tracerProvider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
    tracerProvider.register();
  }
  const meterProvider = config.metrics
    ? new MeterProvider({
        resource,
        readers: [
          new PeriodicExportingMetricReader({
            exporter: createMetricExporter(config.metrics),
            exportIntervalMillis: config.metrics.exportIntervalMs,
          }),
        ],
      })
    : undefined;
  const tracer = (tracerProvider ?? otel.trace.getTracerProvider()).getTracer(SCOPE);
  const meter = (meterProvider ?? otel.metrics.getMeterProvider()).getMeter(SCOPE);
  return {
    resource,
    tracer,
    ...(spanProcessor ? { spanProcessor } : {}),
    metrics: createTelemetryMetrics(meter),
    captureContent: config.captureContent === true,
    flush: async () => {
      await Promise.all([tracerProvider?.forceFlush(), meterProvider?.forceFlush()]);
    },
    shutdown: async () => {
      await Promise.all([tracerProvider?.shutdown(), meterProvider?.shutdown()]);
    },
  };
}
