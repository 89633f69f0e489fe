import type { Meter } from '@opentelemetry/api';
import { Attr } from './workflows/attribute-names';

/**
 * Thoughtline's instruments. Attributes are names, models, reasons and token types only, so each
 * series stays small: never a workflow id, a call id or any text of a run.
 */
export function createTelemetryMetrics(meter: Meter) {
  return {
    runsStarted: meter.createCounter('thoughtline.runs.started', {
      description: 'Agent runs started (a continued run is not a new one)',
      unit: '{run}',
    }),
    runsEnded: meter.createCounter('thoughtline.runs.ended', {
      description: `Agent runs ended, by ${Attr.terminationReason}`,
      unit: '{run}',
    }),
    continuedAsNew: meter.createCounter('thoughtline.runs.continued_as_new', {
      description: 'Times a run continued as new to keep its history small',
      unit: '{run}',
    }),
    tokens: meter.createCounter('thoughtline.tokens', {
      description: `Model tokens, by model, agent and ${Attr.tokenType}`,
      unit: '{token}',
    }),
    cost: meter.createCounter('thoughtline.cost', { description: 'Model spend, by model and agent', unit: 'USD' }),
    modelDuration: meter.createHistogram('gen_ai.client.operation.duration', {
      description: 'Model call latency (one activity attempt)',
      unit: 's',
    }),
    toolDuration: meter.createHistogram('thoughtline.tool.duration', {
      description: 'Tool call latency (one activity attempt)',
      unit: 's',
    }),
    approvalsWaiting: meter.createObservableGauge('thoughtline.approvals.waiting', {
      description: "Tool calls waiting for a person's approval, as this worker last saw them",
      unit: '{call}',
    }),
  };
}

export type TelemetryMetrics = ReturnType<typeof createTelemetryMetrics>;
