import fs from 'node:fs';
import type { OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry';
import { Runtime, type ActivityInterceptorsFactory, type InjectedSinks, type WorkerOptions } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import type { RunEventPublisher } from '../events/run-event-sinks';
import type { LoadedPolicy } from '../governance/load-visibility-policy';
import { activityTelemetry } from './activity-telemetry';
import { createApprovalWatch } from './approval-watch';
import { createRunSpans } from './run-spans';
import type { Telemetry } from './start-telemetry';
import { createStepContent } from './step-content';
import { Attr } from './workflows/attribute-names';
import { TELEMETRY_WORKFLOW_MODULES } from './telemetry-workflow-modules';
import { tenantLabel } from './workflows/tenant-label';
import type { RunFacts, TelemetrySinks } from './workflows/telemetry-sinks';

/** What telemetry adds to a Worker. */
export interface WorkerTelemetry {
  workflowModules: readonly string[];
  /** Outermost activity interceptor (see activityTelemetry). */
  activity: ActivityInterceptorsFactory;
  sinks: InjectedSinks<TelemetrySinks & OpenTelemetrySinks>;
  /**
   * The run event publisher to give the worker: `own` (if any) plus the approvals gauge and, with
   * content capture on, each step's content in `policy`'s telemetry view (no policy: `developer`).
   */
  events(own: RunEventPublisher | undefined, policy?: LoadedPolicy): RunEventPublisher;
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
  // An optional peer, required only once telemetry is on (loadTelemetry).
  const { makeWorkflowExporter } =
    require('@temporalio/interceptors-opentelemetry') as typeof import('@temporalio/interceptors-opentelemetry');
  const spans = telemetry.spanProcessor ? makeWorkflowExporter(telemetry.spanProcessor, telemetry.resource) : undefined;
  // Content needs traces (it goes on spans) and the opt-in; otherwise no run's span is remembered.
  const runSpans = telemetry.captureContent && telemetry.spanProcessor ? createRunSpans() : undefined;
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
          fn: (_info, run) => metrics.runsStarted.add(1, { ...labels(run), [Attr.runKind]: run.runKind }),
          callDuringReplay: false,
        },
        runEnded: {
          fn: (_info, run) =>
            metrics.runsEnded.add(1, {
              ...labels(run),
              [Attr.runKind]: run.runKind,
              [Attr.terminationReason]: run.terminationReason,
            }),
          callDuringReplay: false,
        },
        continuedAsNew: {
          fn: (_info, run) => metrics.continuedAsNew.add(1, labels(run)),
          callDuringReplay: false,
        },
        runSpan: {
          fn: (info, run) => runSpans?.set(info.workflowId, run),
          callDuringReplay: false,
        },
      },
    },
    events: (own, policy) => {
      const content = runSpans ? createStepContent(telemetry.tracer, runSpans, policy) : undefined;
      return {
        publish(event) {
          approvals.observe(event);
          // Content is best effort: a step it cannot show never stops the worker's own publisher.
          try {
            content?.observe(event);
          } catch {
            // The durable chain has the step.
          }
          own?.publish(event);
        },
      };
    },
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

/** A run's metric labels: its agent, and its tenant when it has one (one series per tenant). */
function labels(run: RunFacts): Record<string, string> {
  return { [Attr.agentName]: run.agentName, ...(run.tenant ? { [Attr.tenant]: tenantLabel(run.tenant) } : {}) };
}

function identityOf(info: WorkflowInfo): WorkflowInfo {
  const { workflowId, runId, workflowType, taskQueue, namespace } = info;
  return { workflowId, runId, workflowType, taskQueue, namespace } as WorkflowInfo;
}
