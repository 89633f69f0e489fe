import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { readRunInput } from '../../src/client/runs/read-run-input';
import { readThread, sendThreadTurn, threadWorkflowId } from '../../src/client/threads/thread-client';
import { sendUpdate, UpdateRefusedError } from '../../src/client/errors/update-refused-error';
import { generateSigningKey } from '../../src/server/signing/generate-signing-key';
import { loadDecisionSigner } from '../../src/server/signing/load-decision-signer';
import { argumentsHash, type ApprovalDecision } from '../../src/domain';
import type { ThreadStartInit } from '../../src/domain/threads/thread-schemas';
import { approveToolCallUpdate } from '../../src/workflows/messages';
import { waitForPending, writeFileTool } from '../helpers/approval-helpers';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';
import { threadModels } from '../threads/thread-models';

/**
 * Issue 63, item 2: a thread keeps whose it is, never the roles or the server's signature
 * requirement of its first turn. The doors (A2A contexts, AG-UI threads) send each turn with the
 * identity authenticated for it and the server's requirement now; this drives the thread as they
 * do, on the real dev server, and attacks the second turn's run straight through Temporal.
 */
const env = useTestEnv();
const models = threadModels();
const ran: Array<Record<string, unknown>> = [];
let h: AgentHarness;
let running: Promise<void>;

beforeAll(async () => {
  h = await createHarness(env, { tools: [writeFileTool(ran)], models: { anthropic: models } });
  running = h.worker.run();
});
afterAll(async () => {
  h?.worker.shutdown();
  await running;
});

const admin = { id: 'ada', roles: ['admin', 'developer'], tenant: 'acme' };
const demoted = { id: 'ada', roles: ['viewer'], tenant: 'acme' };

async function settled(workflowId: string, turns: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const view = await readThread(h.agents, workflowId);
    if (view && view.turns.length === turns && view.turns.every((t) => t.status !== 'running')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`thread ${workflowId} did not settle`);
}

describe("a thread's later turn", () => {
  it(
    'runs with the roles of its own turn and obeys a signature requirement that began after the thread',
    { timeout: 90_000 },
    async () => {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'turn-keys-')), 'keys.json');
      fs.writeFileSync(
        file,
        JSON.stringify({ keys: [{ id: 'k1', privateKey: generateSigningKey('k1').privateKey }] }),
        {
          mode: 0o600,
        },
      );
      const signer = loadDecisionSigner(file);
      // What the door sends: the thread's start as of the first turn, before --require-signatures.
      const start: ThreadStartInit = { threadId: `t-${randomUUID()}`, owner: admin, agent: { agentName: 'agent' } };
      const first = `first-${randomUUID().slice(0, 8)}`;
      const second = `second-${randomUUID().slice(0, 8)}`;
      const args = { path: '/srv/payroll.csv', text: 'pay 100' };
      models.script(first, [{ content: [say('Thought: easy.'), useTool('finish', { result: 'Hello.' })] }]);
      models.script(second, [
        { content: [say('Thought: pay it.'), useTool('write_file', args, 'toolu_pay')] },
        { content: [useTool('finish', { result: 'paid' })] },
      ]);

      await sendThreadTurn(h.agents, start, { turnId: 'r1', text: `${first}: hi`, by: admin });
      const workflowId = threadWorkflowId(admin, start.threadId);
      await settled(workflowId, 1);

      // The owner was demoted and the server restarted with --require-signatures: the next turn says so.
      const receipt = await sendThreadTurn(h.agents, start, {
        turnId: 'r2',
        text: `${second}: pay the invoice`,
        by: demoted,
        signedDecisions: { publicKeys: signer.publicKeys() },
      });
      const input = (await readRunInput(h.agents.client, receipt.runId)) as {
        caller?: { roles?: string[] };
        signedDecisions?: unknown;
      };
      expect(input.caller?.roles).toEqual(['viewer']);
      expect(input.signedDecisions).toEqual({ publicKeys: signer.publicKeys() });

      await waitForPending(h.agents, receipt.runId);
      const handle = h.agents.getHandle(receipt.runId);
      const unsigned: ApprovalDecision = {
        callId: 'toolu_pay',
        approved: true,
        by: { id: 'ada', roles: ['admin'] },
        argumentsHash: argumentsHash(args),
      };
      const refused = await sendUpdate(() => handle.executeUpdate(approveToolCallUpdate, { args: [unsigned] })).then(
        () => 'accepted',
        (e: unknown) => (e instanceof UpdateRefusedError ? e.message : `unexpected: ${String(e)}`),
      );
      expect(refused).toMatch(/sign/i);
      expect(ran).toEqual([]);
      await handle.cancel();
    },
  );
});
