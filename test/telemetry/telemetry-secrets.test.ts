import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, useTool } from '../../src/activities/models/scripted-model';
import { telemetryBundleOptions } from '../../src/telemetry';
import { defineTool } from '../../src/tools/define-tool';
import { WORKFLOW_BUNDLER_OPTIONS, WORKFLOWS_PATH } from '../../src/worker';
import { pollFor } from '../helpers/approval-helpers';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { createHarness, useTestEnv } from '../helpers/temporal-env';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver';

/**
 * Secrets on the paths where runs fail (issue 43): a tool that throws with a connection string and
 * the worker's own key in its message, a model call that fails the same way, a steering message
 * and a refused decision. Everything the worker exports to a real OTLP receiver, whole (status
 * messages and exception events too), must hold none of them.
 */
const env = useTestEnv();
let receiver: OtlpReceiver;
let bundlePath: string;

const KNOWN = 'known-worker-secret-4d1e9a';
const PASSWORD = 'Pg-Passw0rd-93';
const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(4)}`;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  Object.assign(process.env, {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'thoughtline-secrets-test',
  });
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    ...WORKFLOW_BUNDLER_OPTIONS,
    ...telemetryBundleOptions(),
    logger: quietLogger,
  });
  bundlePath = path.resolve(__dirname, `../../.thoughtline/tmp/telemetry-secrets-bundle-${process.pid}.js`);
  fs.mkdirSync(path.dirname(bundlePath), { recursive: true });
  fs.writeFileSync(bundlePath, code);
});

afterAll(async () => {
  await receiver?.close();
  if (bundlePath) fs.rmSync(bundlePath, { force: true });
});

const leakyTool = defineTool({
  name: 'connect',
  description: 'Connects to the database',
  input: z.object({ url: z.string() }),
  retry: { maximumAttempts: 1 },
  execute: ({ url }) => {
    throw new Error(`could not connect to ${url} with key ${KNOWN} (token ${TOKEN})`);
  },
});

describe('OpenTelemetry exports no secret on the failure paths', () => {
  it('a failing tool, a failing model call, a steering message and a refused decision leave nothing secret in any export', async () => {
    let failedOnce = false;
    const scripted = createScriptedModel([
      { content: [useTool('connect', { url: `postgres://app:${PASSWORD}@db.internal/app` }, 'call_connect')] },
      { content: [useTool('finish', { result: 'could not connect' })] },
    ]);
    const model = {
      name: 'scripted' as const,
      complete: async (...args: Parameters<typeof scripted.complete>) => {
        if (!failedOnce) {
          failedOnce = true;
          throw new Error(`401 invalid x-api-key ${KNOWN}; Authorization: Bearer ${TOKEN}`);
        }
        return scripted.complete(...args);
      },
    };
    const h = await createHarness(env, {
      tools: [leakyTool],
      models: { scripted: model },
      secrets: [KNOWN],
      workflowBundlePath: bundlePath,
    });
    const workflowId = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        task: 'Connect to the database',
        agentName: 'secret_keeper',
        model: SCRIPTED_MODEL,
      });
      await h.agents.steer(handle.workflowId, `use password ${PASSWORD} and ${TOKEN}`).catch(() => undefined);
      await h.agents
        .decide(handle.workflowId, { callId: `call_${TOKEN}`, approved: true, by: { id: 'mallory', roles: [] } })
        .catch(() => undefined);
      const result = await handle.result();
      expect(result.terminationReason).toBe('success');
      return handle.workflowId;
    });
    await pollFor('the run span', () =>
      receiver.spans.find(
        (s) => s.name === 'RunWorkflow:agentWorkflow' && s.attributes['thoughtline.workflow.id'] === workflowId,
      ),
    );
    await pollFor('the failed tool span', () => receiver.spans.find((s) => s.name === 'execute_tool connect'));
    const exported = receiver.bodies.join('\n');
    // The failures were exported (the test looks where a leak would be) ...
    expect(exported).toContain('"exception');
    // ... and none of them carries a secret.
    for (const secret of [KNOWN, PASSWORD, TOKEN]) expect(exported, secret).not.toContain(secret);
  }, 120_000);
});

const quietLogger = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };
