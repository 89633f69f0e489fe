import { randomUUID } from 'node:crypto';
import { Client, WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, say, useTool } from '../../src/activities/models/scripted-model';
import { AgentClient } from '../../src/client/agent-client';
import { AesGcmCodec, ENCRYPTED_ENCODING } from '../../src/codec/aes-gcm-codec';
import { startCodecServer, type CodecServer } from '../../src/codec/codec-server';
import { createDataConverter } from '../../src/codec/data-converter';
import { generateEncryptionKey, parseEncryptionKeys } from '../../src/codec/encryption-keys';
import { defineTool } from '../../src/tools/define-tool';
import { createAgentWorker } from '../../src/worker';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';

const TASK_MARKER = 'SECRET-TASK-MARKER-123';
const TOOL_ERROR_MARKER = 'SECRET-TOOL-ERROR-456';
const ANSWER_MARKER = 'SECRET-ANSWER-789';
const TOKEN = 'encrypted-history-token-0123456789';
const Payload = temporal.api.common.v1.Payload;
const EventType = temporal.api.enums.v1.EventType;

const keys = parseEncryptionKeys(generateEncryptionKey('k1'));
const model = createScriptedModel([
  { content: [say('Checking the vault.'), useTool('vault', {})] },
  { content: [say(`The vault is down; the answer is ${ANSWER_MARKER}.`)] },
]);
const vault = defineTool({
  name: 'vault',
  description: 'Reads the vault',
  input: z.object({}),
  retry: { maximumAttempts: 1 },
  execute: () => {
    throw new Error(`vault refused: ${TOOL_ERROR_MARKER}`);
  },
});

const env = useTestEnv();
let worker: Worker;
let running: Promise<void>;
let client: Client;
let agents: AgentClient;
let codecServer: CodecServer;
const taskQueue = `encrypted-${randomUUID()}`;

beforeAll(async () => {
  const namespace = inject('temporalNamespace');
  const dataConverter = createDataConverter(keys);
  // No prebuilt bundle: the worker bundles the workflows itself, with the failure converter in it.
  worker = await createAgentWorker({
    connection: env.nativeConnection,
    namespace,
    taskQueue,
    tools: [vault],
    models: { scripted: model },
    // The run below names a limited tenant: its quota workflow's messages are encrypted too.
    tenantLimits: { tenants: { 'enc-tenant': { maxConcurrentRuns: 2 } } },
    workerOptions: { dataConverter, maxCachedWorkflows: 0 },
  });
  running = worker.run();
  client = new Client({ connection: env.client.connection, namespace, dataConverter });
  agents = new AgentClient({ client, taskQueue });
  codecServer = await startCodecServer({ codec: new AesGcmCodec(keys), token: TOKEN });
});
afterAll(async () => {
  if (worker?.getState() === 'RUNNING') worker.shutdown();
  await running;
  await codecServer?.close();
});

interface Found {
  path: string;
  payload: temporal.api.common.v1.Payload;
}

/** Every payload in a raw history except headers and search attributes (the server indexes those). */
function payloadsIn(value: unknown, path = ''): Found[] {
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return [];
  // Decoded messages carry their reflected type; @temporalio/proto types are not constructors.
  if ((value as { $type?: unknown }).$type === Payload)
    return [{ path, payload: value as temporal.api.common.v1.Payload }];
  return Object.entries(value)
    .filter(([key]) => key !== 'header' && key !== 'searchAttributes')
    .flatMap(([key, child]) => payloadsIn(child, `${path}.${key}`));
}

const encodingOf = (payload: temporal.api.common.v1.IPayload) =>
  Buffer.from(payload.metadata?.encoding ?? []).toString();

/** What the Web UI does: sends stored payloads to the codec server and reads back plain data. */
async function decodeRemotely(payloads: temporal.api.common.v1.IPayload[]): Promise<string[]> {
  const res = await fetch(`${codecServer.url}/decode`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Namespace': inject('temporalNamespace'),
      Authorization: `Bearer ${TOKEN}`,
    },
    body: JSON.stringify({ payloads: payloads.map((p) => Payload.toObject(Payload.fromObject(p), { bytes: String })) }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { payloads: Array<{ data?: string }> };
  return body.payloads.map((p) => Buffer.from(p.data ?? '', 'base64').toString('utf8'));
}

describe('encryption at rest on a real dev server', () => {
  it('stores only ciphertext for inputs, results, activities and failures; the codec server reads it back', async () => {
    const handle = await agents.start({
      task: `Open the vault for ${TASK_MARKER}`,
      model: SCRIPTED_MODEL,
      caller: { id: 'u1', roles: [], tenant: 'enc-tenant' },
    });
    const result = await handle.result();
    model.verify();
    expect(result.finalAnswer).toContain(ANSWER_MARKER);
    // The encrypted client decrypts the failed tool call the chain reports.
    expect(JSON.stringify(result.chain)).toContain(TOOL_ERROR_MARKER);

    const history = await env.client.workflow.getHandle(handle.workflowId).fetchHistory();
    const raw = Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1');
    for (const marker of [TASK_MARKER, TOOL_ERROR_MARKER, ANSWER_MARKER]) expect(raw).not.toContain(marker);

    const events = history.events ?? [];
    const ofType = (type: temporal.api.enums.v1.EventType) => events.filter((e) => e.eventType === type);
    const started = ofType(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED)[0]!
      .workflowExecutionStartedEventAttributes!;
    const completed = ofType(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED)[0]!
      .workflowExecutionCompletedEventAttributes!;
    const scheduled = ofType(EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED).map(
      (e) => e.activityTaskScheduledEventAttributes!,
    );
    const activityResults = ofType(EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED).map(
      (e) => e.activityTaskCompletedEventAttributes!,
    );
    const activityFailures = ofType(EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED).map(
      (e) => e.activityTaskFailedEventAttributes!.failure!,
    );
    expect(started.input?.payloads).toHaveLength(1);
    expect(completed.result?.payloads).toHaveLength(1);
    expect(scheduled.map((s) => s.activityType?.name)).toEqual([
      'acquireTenantRun',
      'describeTools',
      'leaseTenantTokens',
      'callModel',
      'runTool',
      'callModel',
      'releaseTenantRun',
    ]);
    expect(activityResults).toHaveLength(6);
    expect(activityFailures).toHaveLength(1);

    const watched = [
      ...started.input!.payloads!,
      ...completed.result!.payloads!,
      ...scheduled.flatMap((s) => s.input?.payloads ?? []),
      ...activityResults.flatMap((r) => r.result?.payloads ?? []),
    ];
    expect(watched.map(encodingOf)).toEqual(watched.map(() => ENCRYPTED_ENCODING));
    // Everything else too: the Web UI summary, activity summaries, failure attributes.
    const all = payloadsIn(events);
    expect(all.length).toBeGreaterThan(watched.length);
    // With no exception: nothing asks patched(), so no plain marker data of Temporal's core is left either.
    expect(all.filter((f) => encodingOf(f.payload) !== ENCRYPTED_ENCODING).map((f) => f.path)).toEqual([]);

    // The failed tool's message and stack are encrypted attributes, not plain text.
    const toolFailure = activityFailures[0]!;
    expect(toolFailure.message).toBe('Encoded failure');
    expect(toolFailure.stackTrace).toBe('');
    expect(encodingOf(toolFailure.encodedAttributes!)).toBe(ENCRYPTED_ENCODING);

    const decoded = await decodeRemotely([
      started.input!.payloads![0]!,
      completed.result!.payloads![0]!,
      toolFailure.encodedAttributes!,
    ]);
    expect(decoded[0]).toContain(TASK_MARKER);
    expect(decoded[1]).toContain(ANSWER_MARKER);
    expect(JSON.parse(decoded[2]!)).toMatchObject({ message: expect.stringContaining(TOOL_ERROR_MARKER) });
  });

  it('encrypts the failure of a workflow that rejects its input', async () => {
    const handle = await client.workflow.start('agentWorkflow', {
      taskQueue,
      workflowId: `encrypted-fail-${randomUUID()}`,
      // Straight to Temporal: AgentClient.start would refuse this input before it is stored.
      args: [{ task: `Refuse ${TASK_MARKER}`, model: SCRIPTED_MODEL, maxIterations: -1 }],
    });
    const failure = await handle.result().then(
      () => expect.fail('the workflow should fail'),
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const cause = (failure as WorkflowFailedError).cause;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect((cause as ApplicationFailure).type).toBe('InvalidAgentInput');
    expect(cause?.message).toContain('maxIterations');

    const history = await env.client.workflow.getHandle(handle.workflowId).fetchHistory();
    const failedEvent = history.events?.find((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED);
    const stored = failedEvent!.workflowExecutionFailedEventAttributes!.failure!;
    expect(stored.message).toBe('Encoded failure');
    expect(stored.stackTrace).toBe('');
    expect(stored.applicationFailureInfo?.type).toBe('InvalidAgentInput');
    expect(encodingOf(stored.encodedAttributes!)).toBe(ENCRYPTED_ENCODING);
    expect(Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1')).not.toContain(
      'maxIterations',
    );

    const [attributes] = await decodeRemotely([stored.encodedAttributes!]);
    const { message, stack_trace } = JSON.parse(attributes!) as { message: string; stack_trace: string };
    expect(message).toBe(cause?.message);
    expect(stack_trace).toContain('run-agent.ts');
  });
});
