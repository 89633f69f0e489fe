import fs from 'node:fs';
import path from 'node:path';
import { makeWorkflowExporter, type OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry';
import { Runtime, type ActivityInterceptorsFactory, type InjectedSinks, type WorkerOptions } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import type { RunEventPublisher } from '../events/run-event-sinks';
import { activityTelemetry } from './activity-telemetry';
import { createApprovalWatch } from './approval-watch';
import type { Telemetry } from './start-telemetry';
import { Attr } from './workflows/attribute-names';
import type { TelemetrySinks } from './workflows/telemetry-sinks';

/**
 * The workflow interceptor modules telemetry adds to the bundle. A worker bundling at start gets
 * them through `interceptors.workflowModules`; a prebuilt bundle must be built with them
 * (`bundleWorkflowCode({ …, workflowInterceptorModules })`, see telemetryBundleOptions()).
 */
export const TELEMETRY_WORKFLOW_MODULES: readonly string[] = [
  path.join(__dirname, 'workflows', 'workflow-interceptors'),
];

/** What telemetry adds to a Worker. */
export interface WorkerTelemetry {
  workflowModules: readonly string[];
  /** Outermost activity interceptor (see activityTelemetry). */
  activity: ActivityInterceptorsFactory;
  sinks: InjectedSinks<TelemetrySinks & OpenTelemetrySinks>;
  /** The run event publisher to give the worker: `own` (if any) plus the approvals gauge. */
  events(own: RunEventPublisher | undefined): RunEventPublisher;
  flush(): Promise<void>;
  /** Warns (through the Temporal runtime's logger) when a prebuilt bundle lacks the telemetry interceptors. */
  checkBundle(bundle: NonNullable<WorkerOptions['workflowBundle']>): void;
}

/** A name only the telemetry interceptors' code holds: a bundle without it makes no run spans. */
const BUNDLE_MARKER = 'thoughtlineTelemetry';

/** Telemetry's parts for a worker; the SDK itself is shared by every worker of the process. */
export function workerTelemetry(telemetry: Telemetry): WorkerTelemetry {
  const { metrics } = telemetry;
  const approvals = createApprovalWatch();
  metrics.approvalsWaiting.addCallback((result) => result.observe(approvals.count()));
  const spans = telemetry.spanProcessor ? makeWorkflowExporter(telemetry.spanProcessor, telemetry.resource) : undefined;
  return {
    workflowModules: TELEMETRY_WORKFLOW_MODULES,
    activity: activityTelemetry(telemetry),
    sinks: {
      exporter: {
        export: {
          // Temporal copies the whole WorkflowInfo onto the spans (memo and search attributes too): only ids and names pass.
          fn: (info, serialized) => spans?.export.fn(identityOf(info), serialized),
          callDuringReplay: false,
        },
      },
      thoughtlineTelemetry: {
        runStarted: {
          fn: (_info, run) =>
            metrics.runsStarted.add(1, { [Attr.agentName]: run.agentName, [Attr.runKind]: run.runKind }),
          callDuringReplay: false,
        },
        runEnded: {
          fn: (_info, run) =>
            metrics.runsEnded.add(1, {
              [Attr.agentName]: run.agentName,
              [Attr.runKind]: run.runKind,
              [Attr.terminationReason]: run.terminationReason,
            }),
          callDuringReplay: false,
        },
        continuedAsNew: {
          fn: (_info, run) => metrics.continuedAsNew.add(1, { [Attr.agentName]: run.agentName }),
          callDuringReplay: false,
        },
      },
    },
    events: (own) => ({
      publish(event) {
        approvals.observe(event);
        own?.publish(event);
      },
    }),
    flush: () => telemetry.flush(),
    checkBundle(bundle) {
      const code = 'code' in bundle ? bundle.code : fs.readFileSync(bundle.codePath, 'utf8');
      if (code.includes(BUNDLE_MARKER)) return;
      Runtime.instance().logger.warn(
        'OpenTelemetry is on but the prebuilt workflow bundle lacks its interceptors: runs make no workflow spans and the activity spans start traces of their own. Build the bundle with telemetryBundleOptions().',
      );
    },
  };
}

function identityOf(info: WorkflowInfo): WorkflowInfo {
  const { workflowId, runId, workflowType, taskQueue, namespace } = info;
  return { workflowId, runId, workflowType, taskQueue, namespace } as WorkflowInfo;
}
