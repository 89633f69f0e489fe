import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { createServer } from '../../src/server/create-server';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import type { DecisionSigner } from '../../src/server/signing/decision-signer';
import { loadDecisionSigner } from '../../src/server/signing/load-decision-signer';
import { generateSigningKey } from '../../src/server/signing/generate-signing-key';
import { approveToolCallUpdate } from '../../src/workflows/messages';
import { approvalUpdatesInHistory, writeFileTool } from '../helpers/approval-helpers';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { eventually, routedModel, startServerHarness, type ServerHarness } from './server-harness';

const env = useTestEnv();
const model = routedModel();
const ran: Array<Record<string, unknown>> = [];
let s: ServerHarness;

beforeAll(async () => {
  s = await startServerHarness(env, {
    tools: [writeFileTool(ran, { name: 'deploy_config', approverRoles: ['ops'] })],
    model,
  });
});
afterAll(async () => s?.close());

const finish = (answer: string) => ({ content: [useTool('finish', { result: answer })] });

/** Starts a run (as dev, tenant acme) that asks to deploy and waits until GET shows the pending call. */
async function waitingRun(
  key: string,
  callId: string,
  then: Parameters<typeof model.script>[1],
): Promise<{ runId: string; record: any }> {
  model.script(key, [
    {
      content: [
        say('Calling deploy_config for the task.'),
        useTool('deploy_config', { path: `/srv/${key}.yaml`, text: 'replicas: 3' }, callId),
      ],
    },
    ...then,
  ]);
  const started = await s.call('dev', 'POST', '/v1/runs', {
    task: `${key}: deploy`,
    model: SCRIPTED_MODEL,
    approvalTimeoutMs: 120_000,
  });
  const runId = started.json.runId as string;
  const status = await eventually('the pending approval', async () => {
    const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
    return json.pendingApprovals?.length === 1 ? json : undefined;
  });
  return { runId, record: status.pendingApprovals[0] };
}

const ended = (runId: string) =>
  eventually(`${runId} to end`, async () => {
    const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
    return json.status !== 'running' ? json : undefined;
  });

describe('POST /v1/runs/{id}/approvals/{callId}', () => {
  it("refuses the wrong role (403), a stale hash (409), another tenant (404); decides as the token's identity with the right role (200)", async () => {
    const { runId, record } = await waitingRun('approve-ops', 'toolu_s1', [finish('deployed')]);
    expect(record).toMatchObject({
      callId: 'toolu_s1',
      toolName: 'deploy_config',
      approverRoles: ['ops'],
      status: 'pending',
    });
    const url = `/v1/runs/${runId}/approvals/toolu_s1`;

    const wrongRole = await s.call('dev', 'POST', url, { approved: true, argumentsHash: record.argumentsHash });
    expect(wrongRole.status).toBe(403);
    expect(wrongRole.json.error).toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('needs one of the roles ops'),
    });

    const stale = await s.call('ops', 'POST', url, { approved: true, argumentsHash: 'sha256:stale' });
    expect(stale.status).toBe(409);
    expect(stale.json.error.code).toBe('conflict');
    expect(stale.json.error.message.length).toBeGreaterThan(10);

    expect((await s.call('rival', 'POST', url, { approved: true, argumentsHash: record.argumentsHash })).status).toBe(
      404,
    );
    const noReason = await s.call('ops', 'POST', url, { approved: false, argumentsHash: record.argumentsHash });
    expect(noReason.status).toBe(400);
    expect(noReason.json.error.issues[0].path).toEqual(['reason']);
    const forged = await s.call('ops', 'POST', url, {
      approved: true,
      argumentsHash: record.argumentsHash,
      by: { id: 'ceo', roles: ['ops'] },
    });
    expect(forged.status).toBe(400);
    expect(ran).toEqual([]);

    const approved = await s.call('ops', 'POST', url, {
      approved: true,
      argumentsHash: record.argumentsHash,
      reason: 'looks right',
    });
    expect(approved.status).toBe(200);
    expect(approved.json).toMatchObject({
      callId: 'toolu_s1',
      status: 'approved',
      decidedBy: { id: 'ops', roles: ['ops'] },
      note: 'looks right',
    });
    expect(await ended(runId)).toMatchObject({ status: 'completed' });
    expect(ran).toEqual([{ path: '/srv/approve-ops.yaml', text: 'replicas: 3' }]);

    const late = await s.call('ops', 'POST', url, { approved: true, argumentsHash: record.argumentsHash });
    expect(late.status).toBe(409);
    const chain = await s.call('auditor', 'GET', `/v1/runs/${runId}/chain`);
    expect(chain.json.chain.approvals).toEqual([
      expect.objectContaining({ callId: 'toolu_s1', status: 'approved', decidedBy: { id: 'ops', roles: ['ops'] } }),
    ]);
  });

  it('409 for a call id that awaits nothing', async () => {
    const { runId, record } = await waitingRun('approve-unknown', 'toolu_s2', [finish('not deployed')]);
    const unknown = await s.call('ops', 'POST', `/v1/runs/${runId}/approvals/toolu_nope`, {
      approved: true,
      argumentsHash: record.argumentsHash,
    });
    expect(unknown.status).toBe(409);
    expect(unknown.json.error.message).toMatch(/No call toolu_nope awaits a decision/);
    const rejected = await s.call('ops', 'POST', `/v1/runs/${runId}/approvals/toolu_s2`, {
      approved: false,
      argumentsHash: record.argumentsHash,
      reason: 'not today',
    });
    expect(rejected.json).toMatchObject({ status: 'rejected', note: 'not today' });
    expect(await ended(runId)).toMatchObject({ status: 'completed' });
  });
});

describe("a sub-agent's approval", () => {
  it('is listed on the root and decided there: the decision goes to the sub-agent that waits', async () => {
    model.script('root-deploys', [
      { content: [say('Calling deployer for the task.'), useTool('deployer', { task: 'child-deploys: roll out' })] },
      finish('rolled out'),
    ]);
    model.script('child-deploys', [
      {
        content: [
          say('Calling deploy_config for the task.'),
          useTool('deploy_config', { path: '/srv/child.yaml', text: 'x' }, 'toolu_child'),
        ],
      },
      finish('deployed by child'),
    ]);
    const started = await s.call('dev', 'POST', '/v1/runs', {
      task: 'root-deploys: roll out',
      model: SCRIPTED_MODEL,
      agents: { deployer: { description: 'Deploys' } },
    });
    const runId = started.json.runId as string;
    const record = (
      await eventually("the sub-agent's pending call on the root", async () => {
        const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
        return json.pendingApprovals?.length === 1 ? json : undefined;
      })
    ).pendingApprovals[0];
    expect(record).toMatchObject({
      callId: 'toolu_child',
      workflowId: expect.stringContaining(runId),
      agentPath: expect.arrayContaining(['deployer']),
    });
    expect(
      (
        await s.call('dev', 'POST', `/v1/runs/${runId}/approvals/toolu_child`, {
          approved: true,
          argumentsHash: record.argumentsHash,
        })
      ).status,
    ).toBe(403);
    const approved = await s.call('ops', 'POST', `/v1/runs/${runId}/approvals/toolu_child`, {
      approved: true,
      argumentsHash: record.argumentsHash,
    });
    expect(approved).toMatchObject({ status: 200, json: { status: 'approved', workflowId: record.workflowId } });
    expect(await ended(runId)).toMatchObject({ status: 'completed' });
    expect(ran).toContainEqual({ path: '/srv/child.yaml', text: 'x' });
  });
});

describe('steer, cancel and answers', () => {
  it('steers and cancels as the caller (202); both are refused once the run has ended (409)', async () => {
    const { runId } = await waitingRun('steer-cancel', 'toolu_s3', []);
    const steered = await s.call('dev', 'POST', `/v1/runs/${runId}/steer`, { text: 'Use the staging cluster' });
    expect(steered).toMatchObject({ status: 202, json: { accepted: true } });
    expect((await s.call('dev', 'POST', `/v1/runs/${runId}/steer`, { text: '   ' })).json.error.issues[0].path).toEqual(
      ['text'],
    );
    expect((await s.call('rival', 'POST', `/v1/runs/${runId}/cancel`, {})).status).toBe(404);

    const cancelled = await s.call('user', 'POST', `/v1/runs/${runId}/cancel`, { reason: 'wrong ticket' });
    expect(cancelled).toMatchObject({ status: 202, json: { accepted: true } });
    await ended(runId);
    const result = await s.h.agents.result(runId);
    expect(result.terminationReason).toBe('cancelled');
    expect(JSON.stringify(result.chain.steps)).toMatch(/\buser\b[^"]*wrong ticket|wrong ticket[^"]*\buser\b/);

    expect((await s.call('dev', 'POST', `/v1/runs/${runId}/steer`, { text: 'too late' })).status).toBe(409);
    expect((await s.call('dev', 'POST', `/v1/runs/${runId}/cancel`)).status).toBe(409);
  });

  it('answers the open question as the caller (200); 409 when none is open', async () => {
    model.script('question', [
      { content: [say('I need a city.'), useTool('ask_person', { question: 'Which city?' }, 'toolu_q1')] },
      { content: (request) => [useTool('finish', { result: JSON.stringify(request.messages.at(-1)) })] },
    ]);
    const started = await s.call('dev', 'POST', '/v1/runs', {
      task: 'question: weather',
      model: SCRIPTED_MODEL,
      allowQuestions: true,
    });
    const runId = started.json.runId as string;
    await eventually('the open question', async () => {
      const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
      return json.progress?.openQuestion ? json : undefined;
    });
    const answered = await s.call('user', 'POST', `/v1/runs/${runId}/answers`, { text: 'Paris' });
    expect(answered.status).toBe(200);
    expect(answered.json.answer).toBe('Answer received; the run goes on.');
    const again = await s.call('user', 'POST', `/v1/runs/${runId}/answers`, { text: 'Lyon' });
    expect(again.status).toBe(409);
    await ended(runId);
    const result = await s.h.agents.result(runId);
    expect(result.finalAnswer).toContain('Paris');
    expect(result.finalAnswer).not.toContain('Lyon');
  });
});

describe('with a decision signer', () => {
  it("puts the signer's public keys on runs when signatures are required, and sends every decision through it", async () => {
    const signedKinds: string[] = [];
    const keyring = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tl-keys-')), 'keys.json');
    fs.writeFileSync(
      keyring,
      JSON.stringify({ keys: [{ id: 'k-test', privateKey: generateSigningKey('k-test').privateKey }] }),
      { mode: 0o600 },
    );
    const real = loadDecisionSigner(keyring);
    const signer: DecisionSigner = {
      publicKeys: () => real.publicKeys(),
      sign: (kind, workflowId, payload, by) => {
        signedKinds.push(kind);
        return real.sign(kind, workflowId, payload, by);
      },
    };
    const server = await createServer({
      agents: s.h.agents,
      auth: createTokenFileAuthenticator({ file: s.tokenFile }),
      signer,
      requireSignatures: true,
      port: 0,
    });
    try {
      model.script('signed', [
        {
          content: [
            say('Calling deploy_config for the task.'),
            useTool('deploy_config', { path: '/srv/signed.yaml' }, 'toolu_sig'),
          ],
        },
        finish('deployed'),
      ]);
      const call = (token: string, method: string, url: string, body?: unknown) =>
        fetch(`${server.url}${url}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        }).then(async (r) => ({ status: r.status, json: (await r.json()) as any }));
      const started = await call(s.tokens.dev, 'POST', '/v1/runs', { task: 'signed: deploy', model: SCRIPTED_MODEL });
      const runId = started.json.runId as string;
      const history = await s.h.agents.getHandle(runId).fetchHistory();
      const input = env.client.options.loadedDataConverter.payloadConverter.fromPayload<{ signedDecisions: unknown }>(
        history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!,
      );
      expect(input.signedDecisions).toEqual({ publicKeys: real.publicKeys() });
      const record = (
        await eventually('pending', async () => {
          const { json } = await call(s.tokens.ops, 'GET', `/v1/runs/${runId}`);
          return json.pendingApprovals?.length === 1 ? json : undefined;
        })
      ).pendingApprovals[0];
      // Someone with raw Temporal access, not the server, sends an approval: the run refuses it.
      const forged = s.h.agents.getHandle(runId).executeUpdate(approveToolCallUpdate, {
        args: [
          {
            callId: 'toolu_sig',
            approved: true,
            by: { id: 'ops', roles: ['ops'] },
            argumentsHash: record.argumentsHash,
          },
        ],
      });
      await expect(forged).rejects.toMatchObject({ cause: { message: expect.stringMatching(/signature/i) } });
      expect(
        (
          await call(s.tokens.ops, 'POST', `/v1/runs/${runId}/approvals/toolu_sig`, {
            approved: true,
            argumentsHash: record.argumentsHash,
          })
        ).status,
      ).toBe(200);
      await ended(runId);
      expect(signedKinds).toEqual(['approval']);
      const { accepted } = await approvalUpdatesInHistory(env.client, runId);
      expect(accepted).toEqual([expect.objectContaining({ callId: 'toolu_sig', by: { id: 'ops', roles: ['ops'] } })]);
      expect(JSON.stringify(accepted[0]?.signature)).toContain('"keyId":"k-test"');
    } finally {
      await server.close();
    }
  });
});
