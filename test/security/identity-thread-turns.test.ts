import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HttpAgent } from '@ag-ui/client';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { AgentClient } from '../../src/client/agent-client';
import { readThread, threadWorkflowId } from '../../src/client/threads/thread-client';
import { sendUpdate, UpdateRefusedError } from '../../src/client/update-refused-error';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { tokenSha256 } from '../../src/server/auth/token-hash';
import { createServer, type RunningServer } from '../../src/server/create-server';
import { generateSigningKey } from '../../src/server/signing/generate-signing-key';
import { loadDecisionSigner } from '../../src/server/signing/load-decision-signer';
import { argumentsHash, type AgentInputInit, type ApprovalDecision } from '../../src/shared';
import { defineTool } from '../../src/tools/define-tool';
import { approveToolCallUpdate } from '../../src/workflows/messages';
import { createAgentWorker } from '../../src/worker';
import { approvalUpdatesInHistory, pollFor, waitForPending, writeFileTool } from '../helpers/approval-helpers';
import { useTestEnv } from '../helpers/temporal-env';
import { threadModels } from '../threads/thread-models';

/**
 * Issue 63, item 2: a thread used to keep its first turn's roles and signing keys. Here the owner
 * is demoted (the token file rewritten) and the server restarted with --require-signatures between
 * two AG-UI turns of one thread; the second turn's run must take the roles authenticated for it
 * and require signed decisions, so an unsigned approval sent straight to Temporal is refused.
 */
const env = useTestEnv();
const models = threadModels();
const ran: Array<Record<string, unknown>> = [];
const opsRan: string[] = [];
const opsOnly = defineTool({
  name: 'rotate_keys',
  description: 'Rotates the production keys',
  input: z.object({}),
  requiredRoles: ['ops'],
  approval: 'never',
  execute: () => (opsRan.push('rotated'), 'rotated'),
});
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-identity-thread-'));
const tokenFile = path.join(dir, 'tokens.json');
const token = `tl_test_ada_${randomUUID().replaceAll('-', '')}`;
const ada = { id: 'ada', tenant: 'acme', via: 'token' as const };
let agents: AgentClient;
let stopWorker: () => Promise<void>;

/** Grants ada `roles`: the token file the server re-reads on each request. */
function grant(roles: string[]): void {
  const entry = { sha256: tokenSha256(token), id: ada.id, roles, tenant: ada.tenant };
  fs.writeFileSync(tokenFile, JSON.stringify({ tokens: [entry] }), { mode: 0o600 });
}

beforeAll(async () => {
  const taskQueue = `test-${randomUUID()}`;
  const worker = await createAgentWorker({
    connection: env.nativeConnection,
    namespace: inject('temporalNamespace'),
    taskQueue,
    tools: [opsOnly, writeFileTool(ran, { approval: 'always' })],
    // Catalogue agents name no model: the default provider answers them.
    models: { anthropic: models },
    secrets: [],
    cacheFile: path.join(os.tmpdir(), `thoughtline-test-cache-${randomUUID()}.sqlite`),
    workflowBundle: { codePath: inject('workflowBundlePath') },
  });
  const running = worker.run();
  agents = new AgentClient({ client: env.client, taskQueue });
  stopWorker = async () => {
    worker.shutdown();
    await running;
  };
});
afterAll(async () => {
  await stopWorker?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** One AG-UI user turn through `server`, as a stateless front end sends it; resolves when the stream ends. */
async function turn(server: RunningServer, threadId: string, text: string): Promise<void> {
  const agent = new HttpAgent({
    url: `${server.url}/v1/ag-ui/agent`,
    headers: { Authorization: `Bearer ${token}` },
    threadId,
  });
  agent.addMessage({ id: randomUUID(), role: 'user', content: text });
  await agent.runAgent({});
}

/** The input a turn's run was started with, as its history records it. */
async function runInput(workflowId: string): Promise<AgentInputInit> {
  const history = await agents.getHandle(workflowId).fetchHistory();
  const payload = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
  return env.client.options.loadedDataConverter.payloadConverter.fromPayload<AgentInputInit>(payload);
}

describe('a thread across a demotion and a restart with --require-signatures', () => {
  it('runs its second turn with the roles of that turn and refuses an unsigned approval sent straight to Temporal', async () => {
    const keyring = path.join(dir, 'keys.json');
    const key = generateSigningKey('k1');
    fs.writeFileSync(keyring, JSON.stringify({ keys: [{ id: 'k1', privateKey: key.privateKey }] }), { mode: 0o600 });
    const signer = loadDecisionSigner(keyring);
    const auth = createTokenFileAuthenticator({ file: tokenFile });
    const threadId = `ctx-${randomUUID()}`;
    const first = `first-${randomUUID().slice(0, 8)}`;
    const second = `second-${randomUUID().slice(0, 8)}`;
    const args = { path: '/srv/payroll.csv', text: 'pay 100' };
    models.script(first, [{ content: [say('Thought: easy.'), useTool('finish', { result: 'Paris.' })] }]);
    models.script(second, [
      { content: [say('Thought: rotate first.'), useTool('rotate_keys', {}, 'toolu_rotate')] },
      { content: [say('Thought: now pay.'), useTool('write_file', args, 'toolu_pay')] },
      { content: [say('Thought: done.'), useTool('finish', { result: 'paid' })] },
    ]);

    // Turn 1: ada holds ops; the server does not require signatures.
    grant(['ops', 'developer']);
    const before = await createServer({ agents, auth, port: 0, log: () => {} });
    try {
      await turn(before, threadId, `${first}: capital of France?`);
    } finally {
      await before.close();
    }
    // ada is demoted; the server comes back requiring signed decisions.
    grant(['developer']);
    const after = await createServer({ agents, auth, signer, requireSignatures: true, port: 0, log: () => {} });
    onTestFinished(() => after.close());
    await turn(after, threadId, `${second}: rotate the keys, then pay the invoice`);

    const thread = threadWorkflowId(ada, threadId);
    const view = await pollFor('the second turn', async () => {
      const v = await readThread(agents, thread);
      return v && v.turns.length === 2 ? v : undefined;
    });
    expect(view.turns[0]).toMatchObject({ status: 'completed', answer: 'Paris.' });
    const runId = view.turns[1]!.runId;
    // A run left waiting (when an expectation fails) would keep the worker from shutting down.
    onTestFinished(() =>
      agents
        .getHandle(runId)
        .terminate('test over')
        .then(
          () => undefined,
          () => undefined,
        ),
    );
    const input = await runInput(runId);
    expect(input.caller).toEqual({ id: 'ada', roles: ['developer'], tenant: 'acme' });
    expect(input.signedDecisions).toEqual({ publicKeys: signer.publicKeys() });
    // The demoted owner's run may not use the ops tool.
    await waitForPending(agents, runId);
    expect(opsRan).toEqual([]);

    const handle = agents.getHandle(runId);
    const decision = {
      callId: 'toolu_pay',
      approved: true,
      argumentsHash: argumentsHash(args),
      by: { id: 'ada', roles: [] },
    };
    const send = (payload: object) =>
      sendUpdate(() => handle.executeUpdate(approveToolCallUpdate, { args: [payload as ApprovalDecision] })).then(
        () => 'accepted',
        (e: unknown) => (e instanceof UpdateRefusedError ? e.message : `unexpected: ${String(e)}`),
      );
    const unsigned = await send(decision);
    expect(unsigned).toMatch(/^Refused an unsigned or forged approval: /);
    expect(ran).toEqual([]);
    const identity = { id: 'ada', roles: ['developer'], tenant: 'acme', via: 'token' as const };
    expect(await send(signer.sign('approval', runId, decision, identity))).toBe('accepted');
    expect(await handle.result()).toMatchObject({ success: true, finalAnswer: 'paid' });
    expect(ran).toEqual([args]);
    expect(opsRan).toEqual([]);
    const updates = await approvalUpdatesInHistory(env.client, runId);
    expect(updates.accepted).toHaveLength(1);
  });
});
