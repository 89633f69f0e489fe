import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { inject } from 'vitest';
import { AgentClient } from '../../src/client';
import { createScriptedModel, say, useTool } from '../../src/activities/models/scripted-model';
import type { LoadedPolicy } from '../../src/governance';
import type { CallerContext } from '../../src/domain/identity/people';
import { VisibilityPolicy, type VisibilityPolicyInit } from '../../src/domain/visibility';
import { telemetryBundleOptions } from '../../src/telemetry';
import { createAgentWorker, WORKFLOW_BUNDLER_OPTIONS, WORKFLOWS_PATH } from '../../src/worker';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import type { TestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver';

/** The thought every run records: a span carries it only where the telemetry view shows thinking. */
export const THOUGHT = 'Thinking-7d41: the lookup key is the one the task names.';

const quietLogger = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };

/** The receiver, the standard OTEL_* variables (plus `extra`), and a bundle with the telemetry interceptors. */
export async function startContentTelemetry(
  extra: Record<string, string>,
): Promise<{ receiver: OtlpReceiver; bundlePath: string; close(): Promise<void> }> {
  const receiver = await startOtlpReceiver();
  Object.assign(process.env, {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'thoughtline-content-test',
    ...extra,
  });
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    ...WORKFLOW_BUNDLER_OPTIONS,
    ...telemetryBundleOptions(),
    logger: quietLogger,
  });
  const bundlePath = path.resolve(__dirname, `../../.thoughtline/tmp/content-bundle-${process.pid}.js`);
  fs.mkdirSync(path.dirname(bundlePath), { recursive: true });
  fs.writeFileSync(bundlePath, code);
  return {
    receiver,
    bundlePath,
    close: async () => {
      await receiver.close();
      fs.rmSync(bundlePath, { force: true });
    },
  };
}

/** A policy as a worker loads it. */
export const loaded = (init: VisibilityPolicyInit): LoadedPolicy => ({
  policy: VisibilityPolicy.parse(init),
  path: 'test-policy.yaml',
});

/**
 * One run on its own worker (with `policy`): a thought and a lookup, then the answer. Returns its
 * workflow id once the worker has stopped (and flushed its spans and metrics).
 */
export async function runWithPolicy(
  env: TestEnv,
  bundlePath: string,
  opts: { agentName: string; policy?: LoadedPolicy; caller?: CallerContext },
): Promise<string> {
  const model = createScriptedModel([
    {
      content: [say(THOUGHT), useTool('lookup', { key: 'alpha' }, 'call_lookup')],
      usage: { inputTokens: 50, outputTokens: 5 },
    },
    { content: [useTool('finish', { result: 'alpha is 1' })], usage: { inputTokens: 60, outputTokens: 5 } },
  ]);
  const taskQueue = `content-${randomUUID()}`;
  const worker = await createAgentWorker({
    connection: env.nativeConnection,
    namespace: env.namespace ?? inject('temporalNamespace'),
    taskQueue,
    tools: testTools().tools,
    models: { scripted: model },
    cacheFile: path.join(os.tmpdir(), `thoughtline-test-cache-${randomUUID()}.sqlite`),
    workflowBundle: { codePath: bundlePath },
    // Every task replayed from the start: content is recorded once all the same.
    workerOptions: { maxCachedWorkflows: 0 },
    ...(opts.policy ? { policy: opts.policy } : {}),
  });
  const agents = new AgentClient({ client: env.client, taskQueue });
  const workflowId = await worker.runUntil(async () => {
    const handle = await agents.start({
      task: 'Look up alpha',
      agentName: opts.agentName,
      model: SCRIPTED_MODEL,
      requireThought: false,
      ...(opts.caller ? { caller: opts.caller } : {}),
    });
    const result = await handle.result();
    if (result.terminationReason !== 'success') throw new Error(`run ended ${result.terminationReason}`);
    return handle.workflowId;
  });
  model.verify();
  return workflowId;
}
