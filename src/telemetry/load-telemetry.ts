import { requireOptionalPeers, type OptionalPeer } from '../packaging/optional-peers';
import { EXPORTER_PACKAGES } from './otlp-exporters';
import { startTelemetry } from './start-telemetry';
import type { TelemetryConfig } from './telemetry-config';
import { workerTelemetry, type WorkerTelemetry } from './worker-telemetry';

/** What every configuration of telemetry loads: the SDK and Temporal's interceptors. */
const SDK_PACKAGES: readonly OptionalPeer[] = [
  '@opentelemetry/resources',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/sdk-trace-node',
  '@temporalio/interceptors-opentelemetry',
];

/** The optional peers `config` needs: the SDK, and the exporter of each exported signal's protocol. */
export function telemetryPeers(config: TelemetryConfig): OptionalPeer[] {
  return [
    ...SDK_PACKAGES,
    ...(config.traces ? [EXPORTER_PACKAGES.traces[config.traces.protocol]] : []),
    ...(config.metrics ? [EXPORTER_PACKAGES.metrics[config.metrics.protocol]] : []),
  ];
}

/**
 * Starts the SDK and builds a worker's telemetry. The SDK's packages are required inside
 * startTelemetry, workerTelemetry and the exporters, once telemetry is configured: a default
 * install leaves them out (optional peers), and a worker without OTEL_* variables never loads them. Throws OptionalPeerMissingError, naming the
 * `npm install` command, when a package `config` needs is not installed.
 */
export function loadTelemetry(config: TelemetryConfig): WorkerTelemetry {
  return requireOptionalPeers('OpenTelemetry export (the OTEL_* variables)', telemetryPeers(config), () =>
    workerTelemetry(startTelemetry(config)),
  );
}
