export { telemetryBundleOptions, telemetryFromEnv } from './telemetry-from-env';
export { parseTelemetryConfig, type TelemetryConfig } from './telemetry-config';
export { TELEMETRY_WORKFLOW_MODULES, type WorkerTelemetry } from './worker-telemetry';
