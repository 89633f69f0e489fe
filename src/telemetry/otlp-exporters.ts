import { OTLPMetricExporter as GrpcMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { SignalExport } from './telemetry-config';

/** The OTLP span exporter for the configured protocol (the `-http` package is OTLP/HTTP JSON). */
export function createSpanExporter({ protocol, url }: SignalExport): SpanExporter {
  switch (protocol) {
    case 'http/protobuf':
      return new ProtoTraceExporter({ url });
    case 'http/json':
      return new JsonTraceExporter({ url });
    case 'grpc':
      return new GrpcTraceExporter({ url });
    default:
      return protocol satisfies never;
  }
}

/** The OTLP metric exporter for the configured protocol. */
export function createMetricExporter({ protocol, url }: SignalExport): PushMetricExporter {
  switch (protocol) {
    case 'http/protobuf':
      return new ProtoMetricExporter({ url });
    case 'http/json':
      return new JsonMetricExporter({ url });
    case 'grpc':
      return new GrpcMetricExporter({ url });
    default:
      return protocol satisfies never;
  }
}
