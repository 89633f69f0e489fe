import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentResult } from '../../src/domain';
import { cliEnv, runCli } from '../helpers/cli-process';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver';

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

describe("the CLI's own worker with OTEL_* set", () => {
  it(
    'builds its cached bundle with the interceptors: the run is one trace holding its model and tool spans',
    { timeout: 180_000 },
    async () => {
      const env = cliEnv({
        THOUGHTLINE_TASK_QUEUE: `otel-${randomUUID()}`,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_METRICS_EXPORTER: 'none',
      });
      const run = await runCli(['run', 'Compare the weather in San Francisco and Paris', '--json'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).not.toMatch(/without the telemetry interceptors|bundle.*telemetry/i);
      const result = AgentResult.parse(JSON.parse(run.stdout));
      const ofRun = receiver.spans.filter((s) => s.attributes['thoughtline.workflow.id'] === result.chain.chainId);
      expect(ofRun.length).toBeGreaterThan(0);
      const traceId = ofRun[0]!.traceId;
      const inTrace = receiver.spans.filter((s) => s.traceId === traceId);
      expect(inTrace.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat')).toHaveLength(result.modelCalls);
      expect(inTrace.filter((s) => s.attributes['gen_ai.operation.name'] === 'execute_tool')).toHaveLength(
        result.toolCalls,
      );
    },
  );
});
