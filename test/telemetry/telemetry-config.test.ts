import path from 'node:path';
import * as otel from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { parseTelemetryConfig, telemetryBundleOptions, telemetryFromEnv } from '../../src/telemetry';
import { findSandboxViolations } from '../helpers/workflow-imports';

describe('telemetry configuration from the standard OTEL_* variables', () => {
  it('is off when none of them is set, and nothing starts', () => {
    expect(
      parseTelemetryConfig({ PATH: '/usr/bin', OTEL_METRIC_EXPORT_INTERVAL: '1000', OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }),
    ).toBeUndefined();
    // This process has no OTEL_* set: no SDK, no bundle module, the global tracer still the no-op one.
    expect(telemetryFromEnv({})).toBeUndefined();
    expect(telemetryBundleOptions({})).toEqual({});
    expect(otel.trace.getTracer('probe').startSpan('probe').isRecording()).toBe(false);
  });

  it('is off when OTEL_SDK_DISABLED is true or both exporters are none', () => {
    expect(
      parseTelemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }),
    ).toBeUndefined();
    expect(parseTelemetryConfig({ OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' })).toBeUndefined();
  });

  it('uses the spec defaults: http/protobuf to localhost:4318, metrics every 60 s', () => {
    expect(parseTelemetryConfig({ OTEL_SERVICE_NAME: 'agents' })).toEqual({
      traces: { protocol: 'http/protobuf', url: 'http://localhost:4318/v1/traces' },
      metrics: { protocol: 'http/protobuf', url: 'http://localhost:4318/v1/metrics', exportIntervalMs: 60_000 },
    });
  });

  it("appends the signal path to the shared endpoint, takes a signal's own endpoint as written, and leaves gRPC endpoints alone", () => {
    expect(
      parseTelemetryConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      }),
    ).toMatchObject({
      traces: { protocol: 'http/json', url: 'https://traces.example/otlp' },
      metrics: { protocol: 'http/json', url: 'http://collector:4318/v1/metrics' },
    });
    expect(parseTelemetryConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_METRICS_EXPORTER: 'none' })).toEqual({
      traces: { protocol: 'grpc', url: 'http://localhost:4317' },
    });
    expect(
      parseTelemetryConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317',
        OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'grpc',
        OTEL_TRACES_EXPORTER: 'none',
        OTEL_METRIC_EXPORT_INTERVAL: '5000',
      }),
    ).toEqual({
      metrics: { protocol: 'grpc', url: 'http://c:4317', exportIntervalMs: 5000 },
    });
  });

  it('refuses values it does not understand, naming the variable', () => {
    expect(() => parseTelemetryConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/xml' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL/,
    );
    expect(() => parseTelemetryConfig({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER/);
    expect(() => parseTelemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
  });
});

describe('the telemetry workflow interceptors', () => {
  it('obey the sandbox rules of src/workflows (no Node builtin, no worker-side Temporal package)', () => {
    const root = path.resolve(__dirname, '../../src/telemetry');
    expect(findSandboxViolations(path.join(root, 'workflows/workflow-interceptors.ts'), root)).toEqual([]);
  });
});
