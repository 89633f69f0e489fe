import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKeyringFile } from '../../src/server/signing/create-keyring-file';
import { loadDecisionSigner } from '../../src/server/signing/load-decision-signer';
import { createScriptedModel, useTool } from '../../src/activities/models/scripted-model';
import type { ModelProvider } from '../../src/activities';
import { holdAfter, lastToolResults, pollFor, waitForPending, writeFileTool } from '../helpers/approval-helpers';
import { cliEnv, runCli } from '../helpers/cli-process';
import { runScripted } from '../helpers/run-scripted';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

/** The CLI acts for THOUGHTLINE_USER / THOUGHTLINE_ROLES unless flags say otherwise; never the developer's own. */
const asNobody = { THOUGHTLINE_USER: '', THOUGHTLINE_ROLES: '' };

/** The keyring the runs hold the keys of: the CLI signs with it (THOUGHTLINE_SIGNING_KEYS), so its --roles count. */
const keyring = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tl-keys-')), 'signing-keys.json');
createKeyringFile(keyring);
const signing = (extra: Record<string, string>) => cliEnv({ ...extra, THOUGHTLINE_SIGNING_KEYS: keyring });

/**
 * A run whose one tool is write-like and may be approved only by `ops`, recording its executions
 * in `ran`. Its worker is in this process; the CLI talks to the same server.
 */
const deployRun = (model: ModelProvider, ran: Array<Record<string, unknown>>) => ({
  model,
  tools: [writeFileTool(ran, { name: 'deploy_config', approverRoles: ['ops'] })],
  input: {
    task: 'Deploy the config',
    approvalTimeoutMs: 60_000,
    signedDecisions: { publicKeys: loadDecisionSigner(keyring).publicKeys(), required: false },
  },
});

describe.concurrent('thoughtline status / approve / reject', () => {
  it('status shows the pending call; approve <id> <callId> --as alice --roles ops runs it, after refusing a person without the role', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const args = { path: '/srv/app.yaml', text: 'replicas: 3' };
    const model = createScriptedModel([
      { content: [useTool('deploy_config', args, 'toolu_e1')] },
      { content: [useTool('finish', { result: 'deployed' })] },
    ]);
    const { observed, result } = await runScripted(env, {
      ...deployRun(model, ran),
      during: async ({ h, workflowId }) => {
        await waitForPending(h.agents, workflowId);
        const status = await runCli(['status', workflowId], cliEnv(asNobody));
        const denied = await runCli(
          ['approve', workflowId, 'toolu_e1', '--yes', '--as', 'dave', '--roles', 'dev'],
          signing(asNobody),
        );
        // Without the keyring the roles are only claimed: refused, though ops is the role needed.
        const claimed = await runCli(
          ['approve', workflowId, 'toolu_e1', '--yes', '--as', 'alice', '--roles', 'ops'],
          cliEnv(asNobody),
        );
        const approved = await runCli(
          ['approve', workflowId, 'toolu_e1', '--yes', '--as', 'alice', '--roles', 'ops'],
          signing(asNobody),
        );
        return { status, denied, claimed, approved };
      },
    });
    model.verify();

    const { status, denied, claimed, approved } = observed;
    expect(status.code).toBe(0);
    // The run at a glance first, not a JSON dump.
    expect(status.stdout).toMatch(/^Run agent-\S+: \w+\nIteration: /);
    expect(status.stdout).toContain('Pending approvals (1):');
    expect(status.stdout).toContain('toolu_e1  deploy_config  (waiting since');
    expect(status.stdout).toContain('approvers: ops');
    expect(status.stdout).toContain('  why: always requires approval');
    expect(status.stdout).toContain(`  arguments: ${JSON.stringify(args)}`);

    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain(
      'thoughtline: dave may not decide on deploy_config: it needs one of the roles ops; they have dev.',
    );
    expect(claimed.code).toBe(1);
    expect(claimed.stderr).toContain('alice claimed ops, not verified');

    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('toolu_e1  deploy_config');
    expect(approved.stdout).toContain('approved by alice: deploy_config (toolu_e1)');

    expect(ran).toEqual([args]);
    expect(result).toMatchObject({ success: true, finalAnswer: 'deployed' });
    expect(result.chain.approvals).toEqual([
      expect.objectContaining({ callId: 'toolu_e1', status: 'approved', decidedBy: { id: 'alice', roles: ['ops'] } }),
    ]);
  });

  it('reject <id> --reason without a call id rejects the only pending call, acting as THOUGHTLINE_USER', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const model = createScriptedModel([
      { content: [useTool('deploy_config', { path: '/srv/app.yaml' }, 'toolu_e2')] },
      { content: [useTool('finish', { result: 'not deployed' })] },
    ]);
    const { observed, result } = await runScripted(env, {
      ...deployRun(model, ran),
      during: async ({ h, workflowId }) => {
        await waitForPending(h.agents, workflowId);
        return runCli(
          ['reject', workflowId, '--reason', 'not now', '--yes'],
          signing({ THOUGHTLINE_USER: 'bob', THOUGHTLINE_ROLES: 'ops' }),
        );
      },
    });
    model.verify();

    expect(observed.code).toBe(0);
    expect(observed.stdout).toContain('rejected by bob: deploy_config (toolu_e2)');
    expect(ran).toEqual([]);
    expect(result).toMatchObject({ success: true, finalAnswer: 'not deployed', toolCalls: 0 });
    expect(result.chain.approvals).toEqual([
      expect.objectContaining({
        callId: 'toolu_e2',
        status: 'rejected',
        note: 'not now',
        decidedBy: { id: 'bob', roles: ['ops'] },
      }),
    ]);
    expect(lastToolResults(model.calls[1]!.messages)).toEqual([
      {
        type: 'tool_result',
        toolUseId: 'toolu_e2',
        content: 'Not run: bob rejected this call: not now.',
        isError: true,
      },
    ]);
  });

  it('shows the call and asks first: no answer or "n" decides nothing, "y" approves what was shown', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const args = { path: '/srv/app.yaml', text: 'replicas: 5' };
    const model = createScriptedModel([
      { content: [useTool('deploy_config', args, 'toolu_e4')] },
      { content: [useTool('finish', { result: 'deployed' })] },
    ]);
    const as = ['--as', 'alice', '--roles', 'ops'];
    const { observed, result } = await runScripted(env, {
      ...deployRun(model, ran),
      during: async ({ h, workflowId }) => {
        await waitForPending(h.agents, workflowId);
        const noInput = await runCli(['approve', workflowId, ...as], signing(asNobody));
        const no = await runCli(['approve', workflowId, ...as], signing(asNobody), 'n\n');
        const stillPending = (await h.agents.pendingApprovals(workflowId)).map((p) => p.callId);
        const yes = await runCli(['approve', workflowId, ...as], signing(asNobody), 'y\n');
        return { noInput, no, stillPending, yes };
      },
    });
    model.verify();
    for (const refused of [observed.noInput, observed.no]) {
      expect(refused.code).not.toBe(0);
      expect(refused.stdout).toContain('toolu_e4  deploy_config');
      expect(refused.stderr).toContain('Approve deploy_config (toolu_e4) with the arguments above? [y/N]');
      expect(refused.stderr).toContain('Not decided');
    }
    expect(observed.stillPending).toEqual(['toolu_e4']);
    expect(observed.yes.code).toBe(0);
    expect(observed.yes.stdout).toContain('approved by alice: deploy_config (toolu_e4)');
    expect(ran).toEqual([args]);
    expect(result.success).toBe(true);
  });

  it('approve on a run with nothing pending exits 1, reject without --reason exits 2 (usage), each with a clear message', async () => {
    const ran: Array<Record<string, unknown>> = [];
    const scripted = createScriptedModel([{ content: [useTool('finish', { result: 'nothing to deploy' })] }]);
    // The run stays in its first model call, so it is running with nothing pending.
    const held = holdAfter(scripted, 0);
    const { observed, result } = await runScripted(env, {
      ...deployRun(held.model, ran),
      during: async ({ workflowId }) => {
        await pollFor('the first model call', () => (held.held() > 0 ? true : undefined));
        const approve = await runCli(
          ['approve', workflowId, '--yes', '--as', 'alice', '--roles', 'ops'],
          cliEnv(asNobody),
        );
        const reject = await runCli(['reject', workflowId, '--yes', '--as', 'alice'], cliEnv(asNobody));
        held.release();
        return { workflowId, approve, reject };
      },
    });
    scripted.verify();

    expect(observed.approve.code).toBe(1);
    expect(observed.approve.stderr).toContain(`thoughtline: ${observed.workflowId} has no calls waiting for approval.`);
    // A usage mistake: refused before connecting, exit 2.
    expect(observed.reject.code).toBe(2);
    expect(observed.reject.stderr).toContain('thoughtline: "reject" needs --reason');
    expect(result).toMatchObject({ success: true, finalAnswer: 'nothing to deploy' });
    expect(result.chain.approvals ?? []).toEqual([]);
  });
});
