import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { createServer, type RunningServer } from '../../src/server/create-server';
import { writeFileTool } from '../helpers/approval-helpers';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { writePolicy } from './policy-fixture';
import { eventually, routedModel, startServerHarness, type Person, type ServerHarness } from './server-harness';

const env = useTestEnv();
const model = routedModel();
const ran: Array<Record<string, unknown>> = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-policy-decisions-'));
let s: ServerHarness;
/** The same worker behind a server whose policy shows end users deploy_config's calls as summaries. */
let policed: RunningServer;

const POLICY = `version: 1
roles:
  end_user:
    tools:
      deploy_config:
        call: summary
`;

beforeAll(async () => {
  s = await startServerHarness(env, {
    tools: [writeFileTool(ran, { name: 'deploy_config', approverRoles: ['ops'] })],
    model,
  });
  policed = await createServer({
    agents: s.h.agents,
    auth: createTokenFileAuthenticator({ file: s.tokenFile, log: () => {} }),
    signer: s.signer,
    port: 0,
    policy: await writePolicy(dir, 'policy.yaml', POLICY),
  });
});
afterAll(async () => {
  await policed?.close();
  await s?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(who: Person, method: string, url: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${policed.url}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${s.tokens[who]}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, json: await response.json() };
}

describe('pending approvals under a policy', () => {
  it("show an end user's view the call as the policy shows it, in the run and in the decision's answer", async () => {
    const key = `policy-decide-${Math.random().toString(36).slice(2, 8)}`;
    model.script(key, [
      {
        content: [
          say('Deploying.'),
          useTool('deploy_config', { path: `/srv/${key}.yaml`, text: 'replicas: 3' }, 'toolu_p1'),
        ],
      },
      { content: [useTool('finish', { result: 'deployed' })] },
    ]);
    const started = await s.call('dev', 'POST', '/v1/runs', {
      task: `${key}: deploy`,
      model: SCRIPTED_MODEL,
      approvalTimeoutMs: 120_000,
    });
    const runId = started.json.runId as string;
    // The control: without the policy, ops (the end user's view) reads the call's arguments.
    const plain = await eventually('the pending approval', async () => {
      const { json } = await s.call('ops', 'GET', `/v1/runs/${runId}`);
      return json.pendingApprovals?.length === 1 ? json.pendingApprovals[0] : undefined;
    });
    expect(plain.arguments).toMatchObject({ path: `/srv/${key}.yaml` });

    const policedRun = await call('ops', 'GET', `/v1/runs/${runId}`);
    expect(policedRun.json.pendingApprovals[0]).toMatchObject({ callId: 'toolu_p1', arguments: {} });
    expect(JSON.stringify(policedRun.json)).not.toContain(`/srv/${key}.yaml`);
    // A developer's view is not narrowed by the end user's rules.
    expect((await call('dev', 'GET', `/v1/runs/${runId}`)).json.pendingApprovals[0].arguments).toMatchObject({
      path: `/srv/${key}.yaml`,
    });

    const decided = await call('ops', 'POST', `/v1/runs/${runId}/approvals/toolu_p1`, {
      approved: true,
      argumentsHash: plain.argumentsHash,
    });
    expect(decided.status).toBe(200);
    expect(decided.json).toMatchObject({ callId: 'toolu_p1', status: 'approved', arguments: {} });
    await eventually('the call to run', async () => (ran.length === 1 ? ran : undefined));
  });
});
