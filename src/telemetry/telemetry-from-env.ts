import { loadTelemetry } from './load-telemetry';
import { parseTelemetryConfig } from './telemetry-config';
import { TELEMETRY_WORKFLOW_MODULES } from './telemetry-workflow-modules';
import type { WorkerTelemetry } from './worker-telemetry';

let started: { parts: WorkerTelemetry | undefined } | undefined;

/**
 * Telemetry as the standard OTEL_* variables configure it, or undefined when they leave it off
 * (then nothing is started, imported into a bundle or added to a worker). Read once per process:
 * the SDK is global (its context manager and propagator), so every worker shares one. Throws
 * OptionalPeerMissingError when the variables turn it on and its packages are not installed.
 */
export function telemetryFromEnv(env: NodeJS.ProcessEnv = process.env): WorkerTelemetry | undefined {
  if (!started) {
    const config = parseTelemetryConfig(env);
    started = { parts: config ? loadTelemetry(config) : undefined };
  }
  return started.parts;
}

/**
 * Options for `bundleWorkflowCode` when a worker is given a prebuilt bundle: the telemetry
 * interceptors when telemetry is on, nothing otherwise (the bundle stays byte-for-byte the same).
 */
export function telemetryBundleOptions(env: NodeJS.ProcessEnv = process.env): {
  workflowInterceptorModules?: string[];
} {
  return telemetryFromEnv(env) ? { workflowInterceptorModules: [...TELEMETRY_WORKFLOW_MODULES] } : {};
}
