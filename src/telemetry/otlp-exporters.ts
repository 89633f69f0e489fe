import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { OptionalPeer } from '../packaging/optional-peers';
import type { OtlpProtocol, SignalExport } from './telemetry-config';

/**
 * The exporter package of each protocol and signal (the `-http` packages are OTLP/HTTP JSON).
 * Each is an optional peer: only the configured protocol's is loaded, so only it need be installed.
 */
export const EXPORTER_PACKAGES = {
  traces: {
    'http/protobuf': '@opentelemetry/exporter-trace-otlp-proto',
    'http/json': '@opentelemetry/exporter-trace-otlp-http',
    grpc: '@opentelemetry/exporter-trace-otlp-grpc',
  },
  metrics: {
    'http/protobuf': '@opentelemetry/exporter-metrics-otlp-proto',
    'http/json': '@opentelemetry/exporter-metrics-otlp-http',
    grpc: '@opentelemetry/exporter-metrics-otlp-grpc',
  },
} as const satisfies Record<'traces' | 'metrics', Record<OtlpProtocol, OptionalPeer>>;

type TraceExporter = typeof import('@opentelemetry/exporter-trace-otlp-proto').OTLPTraceExporter;
type MetricExporter = typeof import('@opentelemetry/exporter-metrics-otlp-proto').OTLPMetricExporter;

/** The OTLP span exporter for the configured protocol; only its package is required, on first use. */
export function createSpanExporter({ protocol, url }: SignalExport): SpanExporter {
  const load = (module: { OTLPTraceExporter: TraceExporter }) => new module.OTLPTraceExporter({ url });
  switch (protocol) {
    case 'http/protobuf':
      return load(require('@opentelemetry/exporter-trace-otlp-proto'));
    case 'http/json':
      return load(require('@opentelemetry/exporter-trace-otlp-http'));
    case 'grpc':
      return load(require('@opentelemetry/exporter-trace-otlp-grpc'));
    default:
      return protocol satisfies never;
  }
}

/** The OTLP metric exporter for the configured protocol; only its package is required, on first use. */
export function createMetricExporter({ protocol, url }: SignalExport): PushMetricExporter {
  const load = (module: { OTLPMetricExporter: MetricExporter }) => new module.OTLPMetricExporter({ url });
  switch (protocol) {
    case 'http/protobuf':
      return load(require('@opentelemetry/exporter-metrics-otlp-proto'));
    case 'http/json':
      return load(require('@opentelemetry/exporter-metrics-otlp-http'));
    case 'grpc':
      return load(require('@opentelemetry/exporter-metrics-otlp-grpc'));
    default:
      return protocol satisfies never;
  }
}
