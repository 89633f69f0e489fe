import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScriptedModel, useTool } from '../../src/activities/models/scripted-model';
import { generateSigningKey } from '../../src/server/signing/generate-signing-key';
import type { Identity } from '../../src/server/auth/identity';
import { loadDecisionSigner } from '../../src/server/signing/load-decision-signer';
import { UpdateRefusedError, sendUpdate } from '../../src/client/errors/update-refused-error';
import { argumentsHash, type ApprovalDecision } from '../../src/domain';
import { base64UrlDecode, signDecision } from '../../src/domain/approval/signed-decision';
import { approveToolCallUpdate } from '../../src/workflows/messages';
import { approvalUpdatesInHistory, waitForPending, writeFileTool } from '../helpers/approval-helpers';
import { runScripted } from '../helpers/run-scripted';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

/**
 * Approvals forged around `thoughtline serve`, sent straight to Temporal with the client's own
 * executeUpdate, to a run that requires signed decisions (issue 43). The server's real key signs
 * something else each time, or signs right but too long ago; the validator must refuse every one
 * before it reaches history, and the run must keep waiting for a genuine decision.
 */
describe('a run that requires signed decisions, approached directly through Temporal', () => {
  it(
    'refuses flipped, transplanted, stale, future and malformed signatures in the validator, then accepts the genuine one',
    { timeout: 90_000 },
    async () => {
      const key = generateSigningKey('k1');
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'forged-')), 'keys.json');
      fs.writeFileSync(file, JSON.stringify({ keys: [{ id: 'k1', privateKey: key.privateKey }] }), { mode: 0o600 });
      const signer = loadDecisionSigner(file);
      const seed = base64UrlDecode(key.privateKey)!;
      const alice: Identity = { id: 'alice', roles: ['ops'], via: 'oidc' };
      const ran: Array<Record<string, unknown>> = [];
      const args = { path: '/srv/payroll.csv', text: 'pay 100' };
      const model = createScriptedModel([
        { content: [useTool('write_file', args, 'toolu_pay')] },
        { content: [useTool('finish', { result: 'paid' })] },
      ]);

      const { observed, result } = await runScripted(env, {
        model,
        tools: [writeFileTool(ran)],
        input: {
          task: 'Pay the invoice',
          approvalTimeoutMs: 60_000,
          signedDecisions: { publicKeys: signer.publicKeys() },
        },
        during: async ({ h, workflowId }) => {
          const handle = h.agents.getHandle(workflowId);
          const send = (payload: unknown) =>
            sendUpdate(() => handle.executeUpdate(approveToolCallUpdate, { args: [payload as ApprovalDecision] })).then(
              () => 'accepted',
              (e: unknown) => (e instanceof UpdateRefusedError ? e.message : `unexpected: ${String(e)}`),
            );
          await waitForPending(h.agents, workflowId);
          const decision = {
            callId: 'toolu_pay',
            approved: true,
            argumentsHash: argumentsHash(args),
            by: { id: 'alice', roles: ['ops'] },
          };
          const rejected = signer.sign('approval', workflowId, { ...decision, approved: false }, alice);
          const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
          const signedAt = (issuedAt: string) =>
            signDecision('approval', workflowId, decision, { keyId: 'k1', seed }, issuedAt);
          const refused = {
            flipped: await send({ ...rejected, approved: true }),
            otherCall: await send({
              ...signer.sign('approval', workflowId, { ...decision, callId: 'toolu_other' }, alice),
              callId: 'toolu_pay',
            }),
            otherArguments: await send({
              ...signer.sign(
                'approval',
                workflowId,
                { ...decision, argumentsHash: argumentsHash({ ...args, text: 'pay 1' }) },
                alice,
              ),
              argumentsHash: decision.argumentsHash,
            }),
            stale: await send(signedAt(minutesAgo(11))),
            future: await send(signedAt(minutesAgo(-5))),
            unknownKey: await send({
              ...signedAt(minutesAgo(0)),
              signature: { ...(signedAt(minutesAgo(0)).signature as object), keyId: 'k9' },
            }),
            numberSignature: await send({ ...decision, signature: 42 }),
            hugeSignatureList: await send({
              ...decision,
              signature: Array.from({ length: 1_000 }, () => ({ keyId: 'k1', issuedAt: minutesAgo(0), value: 'AAAA' })),
            }),
          };
          const stillPending = (await h.agents.pendingApprovals(workflowId)).map((r) => r.callId);
          const ranBefore = ran.length;
          const genuine = await send(signer.sign('approval', workflowId, decision, alice));
          // The same genuine payload again: the call is decided, so it is refused too.
          const replayed = await send(signer.sign('approval', workflowId, decision, alice));
          return { refused, stillPending, ranBefore, genuine, replayed, workflowId };
        },
      });

      for (const [attack, message] of Object.entries(observed.refused)) {
        expect(message, attack).toMatch(/^(Refused an unsigned, forged or replayed approval|Malformed decision): /);
      }
      expect(observed.refused.stale).toMatch(/more than 600 s ago; decide again/);
      expect(observed.stillPending).toEqual(['toolu_pay']);
      expect(observed.ranBefore).toBe(0);
      expect(observed.genuine).toBe('accepted');
      expect(observed.replayed).not.toBe('accepted');
      expect(result).toMatchObject({ success: true, finalAnswer: 'paid' });
      expect(ran).toEqual([args]);
      // Only the genuine decision is in history: every refusal stopped at the validator.
      const updates = await approvalUpdatesInHistory(env.client, observed.workflowId);
      expect(updates.accepted).toHaveLength(1);
    },
  );
});
