export { telemetryBundleOptions, telemetryFromEnv } from './telemetry-from-env';
export { parseTelemetryConfig, type TelemetryConfig } from './telemetry-config';
export { TELEMETRY_WORKFLOW_MODULES } from './telemetry-workflow-modules';
export type { WorkerTelemetry } from './worker-telemetry';
