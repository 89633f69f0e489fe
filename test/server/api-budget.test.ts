import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { UpdateRefusedError } from '../../src/client/errors/update-refused-error';
import { buildAuditReport, renderAuditMarkdown } from '../../src/audit';
import { createServer } from '../../src/server/create-server';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { generateSigningKey } from '../../src/server/signing/generate-signing-key';
import { loadDecisionSigner } from '../../src/server/signing/load-decision-signer';
import { createKeyringFile } from '../../src/server/signing/create-keyring-file';
import { cliEnv, runCli } from '../helpers/cli-process';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { eventually, routedModel, startServerHarness, type ServerHarness } from './server-harness';

const env = useTestEnv();
const model = routedModel();
let s: ServerHarness;

beforeAll(async () => {
  s = await startServerHarness(env, { tools: testTools().tools, model });
});
afterAll(async () => s?.close());

/** One lookup, then (after a raise of one iteration) the answer. */
const script = (key: string) =>
  model.script(key, [
    { content: [say('Looking up a.'), useTool('lookup', { key: 'a' }, `toolu_${key}_1`)] },
    { content: [useTool('finish', { result: 'a is 10' }, `toolu_${key}_2`)] },
  ]);
const pausedInput = (key: string) => ({
  task: `${key}: find a`,
  model: SCRIPTED_MODEL,
  maxIterations: 1,
  onBudget: 'ask',
  budgetRaiserRoles: ['ops'],
});

describe('POST /v1/runs/{id}/budget (real dev server)', () => {
  it('refuses the wrong role (403), a bad body (400), a raise the run cannot take (409) and a forged raw update; raises as the token’s identity, signed', async () => {
    const keyring = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tl-keys-')), 'keys.json');
    fs.writeFileSync(
      keyring,
      JSON.stringify({ keys: [{ id: 'k-b', privateKey: generateSigningKey('k-b').privateKey }] }),
      { mode: 0o600 },
    );
    const server = await createServer({
      agents: s.h.agents,
      auth: createTokenFileAuthenticator({ file: s.tokenFile }),
      signer: loadDecisionSigner(keyring),
      requireSignatures: true,
      port: 0,
    });
    const call = (who: keyof ServerHarness['tokens'], method: string, url: string, body?: unknown) =>
      fetch(`${server.url}${url}`, {
        method,
        headers: { authorization: `Bearer ${s.tokens[who]}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then(async (r) => ({ status: r.status, json: (await r.json()) as any }));
    try {
      script('httpraise');
      const runId = (await call('dev', 'POST', '/v1/runs', pausedInput('httpraise'))).json.runId as string;
      const paused = await eventually('the pause', async () => {
        const { json } = await call('ops', 'GET', `/v1/runs/${runId}`);
        return json.progress?.budgetPause ? json : undefined;
      });
      expect(paused.progress.budgetPause).toMatchObject({
        reason: 'max_iterations',
        spent: { iterations: 1, modelCalls: 1 },
        raiserRoles: ['ops'],
      });
      const url = `/v1/runs/${runId}/budget`;

      const wrongRole = await call('dev', 'POST', url, { iterations: 1 });
      expect(wrongRole.status).toBe(403);
      expect(wrongRole.json.error.message).toContain('needs one of the roles ops');
      for (const body of [{ iterations: 0 }, { iterations: 1, stop: true }, {}, { iterations: 1_001 }, { by: 'ceo' }])
        expect((await call('ops', 'POST', url, body)).status, JSON.stringify(body)).toBe(400);
      const noTokens = await call('ops', 'POST', url, { tokens: 1_000 });
      expect(noTokens.status).toBe(409);
      expect(noTokens.json.error.message).toBe('This run has no token budget to raise.');
      expect((await call('rival', 'POST', url, { iterations: 1 })).status).toBe(404);
      // Raw Temporal access, not the server: unsigned, so the run refuses it.
      await expect(
        s.h.agents.raiseBudget(runId, { iterations: 1, by: { id: 'ops', roles: ['ops'] } }),
      ).rejects.toBeInstanceOf(UpdateRefusedError);

      const raised = await call('ops', 'POST', url, { iterations: 1, note: 'one more' });
      expect(raised.status).toBe(200);
      expect(raised.json).toMatchObject({
        outcome: 'Budget raised; the run goes on.',
        pause: { reason: 'max_iterations' },
      });
      const ended = await eventually('the end', async () => {
        const { json } = await call('auditor', 'GET', `/v1/runs/${runId}`);
        return json.status !== 'running' ? json : undefined;
      });
      expect(ended).toMatchObject({ status: 'completed' });
      expect((await call('ops', 'POST', url, { iterations: 1 })).status).toBe(409);

      const result = await s.h.agents.getHandle(runId).result();
      const step = result.chain.steps.find((st) => st.type === 'thinking' && st.fromPerson?.kind === 'budget');
      expect(step).toMatchObject({
        fromPerson: { kind: 'budget', by: 'ops' },
        thought: 'Budget raised by ops (ops): +1 iterations (now 2 iterations): one more.',
      });
      // The audit export lists the raise with who gave it.
      const report = buildAuditReport({
        workflowId: runId,
        runIds: [(await s.h.agents.getHandle(runId).describe()).runId],
        chain: result.chain,
        result,
        exportedAt: new Date().toISOString(),
      });
      expect(report.interventions).toContainEqual(expect.objectContaining({ kind: 'budget', by: 'ops' }));
      expect(renderAuditMarkdown(report)).toContain('Budget raise or stop');
    } finally {
      await server.close();
    }
  });
});

describe('thoughtline raise-budget (real dev server)', () => {
  it('shows the pause and raises it; refuses bad flags with exit 2 and a run not paused with exit 1', async () => {
    script('cliraise');
    // The run holds the keyring's keys (as a run of `thoughtline run` or serve does); the CLI signs with it.
    const keyring = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tl-keys-')), 'signing-keys.json');
    createKeyringFile(keyring);
    const handle = await s.h.agents.start({
      ...pausedInput('cliraise'),
      budgetRaiserRoles: [],
      signedDecisions: { publicKeys: loadDecisionSigner(keyring).publicKeys(), required: false },
    } as never);
    const id = handle.workflowId;
    const usage = await runCli(['raise-budget', id, '--stop', '--iterations', '2'], cliEnv({}));
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--stop takes no --tokens, --cost or --iterations.');
    expect((await runCli(['raise-budget', id, '--cost', 'lots'], cliEnv({}))).code).toBe(2);

    await eventually('the pause', async () => ((await handle.query('status')) as any).budgetPause);
    const raised = await runCli(
      ['raise-budget', id, '--iterations', '1', '--as', 'alice', '--roles', 'developer'],
      cliEnv({ THOUGHTLINE_SIGNING_KEYS: keyring }),
    );
    expect(raised.code).toBe(0);
    expect(raised.stdout).toBe(
      'Paused: All 1 iterations are spent.\n+1 iterations by alice: Budget raised; the run goes on.\n',
    );
    const result = await handle.result();
    expect(result).toMatchObject({ success: true, iterations: 2 });
    const again = await runCli(['raise-budget', id, '--iterations', '1'], cliEnv({}));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('has ended');
  });
});
