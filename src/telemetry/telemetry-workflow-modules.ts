import path from 'node:path';

/**
 * The workflow interceptor modules telemetry adds to the bundle. A worker bundling at start gets
 * them through `interceptors.workflowModules`; a prebuilt bundle must be built with them
 * (`bundleWorkflowCode({ …, workflowInterceptorModules })`, see telemetryBundleOptions()). Apart
 * from worker-telemetry.ts so naming them loads none of the SDK (an optional peer).
 */
export const TELEMETRY_WORKFLOW_MODULES: readonly string[] = [
  path.join(__dirname, 'workflows', 'workflow-interceptors'),
];
