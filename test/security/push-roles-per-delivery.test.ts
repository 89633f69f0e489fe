import fs from 'node:fs';
import http from 'node:http';
import type { Message, SendMessageRequest, Task } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { TokenFile } from '../../src/server/auth/token-file';
import { defineTool } from '../../src/tools/define-tool';
import { startA2aHarness, type A2aHarness } from '../a2a/a2a-harness';
import { ACCOUNT, sensitiveTools, sensitiveTurns } from '../helpers/sensitive-answer-run';
import { useTestEnv } from '../helpers/temporal-env';
import { eventually, routedModel } from '../server/server-harness';
import { a2aTextMessage } from '../helpers/a2a-message';

/**
 * DESIGN.md, "Identity per request": a push subscription keeps who it belongs to, never their
 * roles. An auditor subscribes to a task through a real `serve` with a token file; the operator
 * then demotes them (or removes them) in that file, and the webhook's next payloads follow.
 */
const env = useTestEnv();
const model = routedModel();
let s: A2aHarness;

/** Holds a run at its `gate` call until the test opens that gate (one per key). */
const gates = new Map<string, { entered: Promise<void>; enter: () => void; opened: Promise<void>; open: () => void }>();
const gate = (key: string) => {
  let found = gates.get(key);
  if (!found) {
    let enter!: () => void;
    let open!: () => void;
    const entered = new Promise<void>((resolve) => (enter = resolve));
    const opened = new Promise<void>((resolve) => (open = resolve));
    found = { entered, enter, opened, open };
    gates.set(key, found);
  }
  return found;
};
const gateTool = defineTool({
  name: 'gate',
  description: 'Waits for the test',
  input: z.object({ key: z.string() }),
  retry: { maximumAttempts: 1 },
  timeoutMs: 60_000,
  execute: async ({ key }) => {
    gate(key).enter();
    await gate(key).opened;
    return 'open';
  },
});

beforeAll(async () => {
  s = await startA2aHarness(env, { tools: [...sensitiveTools(), gateTool], model, agents: [] });
}, 60_000);

afterAll(async () => {
  for (const g of gates.values()) g.open();
  await s?.close();
});

const message = a2aTextMessage;

const sendNow = (msg: Message): SendMessageRequest => ({
  tenant: '',
  message: msg,
  configuration: {
    acceptedOutputModes: [],
    taskPushNotificationConfig: undefined,
    returnImmediately: true,
    historyLength: undefined,
  },
  metadata: undefined,
});

/** What an operator does to the token file: rewrites the auditor's entry (or drops it), by a rename as `thoughtline token` does. */
function rewriteAuditor(change: 'end_user' | 'removed'): void {
  const file = TokenFile.parse(JSON.parse(fs.readFileSync(s.tokenFile, 'utf8')));
  const tokens = file.tokens.flatMap((entry) =>
    entry.id !== 'auditor' ? [entry] : change === 'removed' ? [] : [{ ...entry, roles: [] }],
  );
  fs.writeFileSync(`${s.tokenFile}.tmp`, JSON.stringify({ tokens }), { mode: 0o600 });
  fs.renameSync(`${s.tokenFile}.tmp`, s.tokenFile);
}

/** A local webhook collecting what each push POSTs. */
async function webhook(): Promise<{ url: string; bodies: any[]; close(): void }> {
  const bodies: any[] = [];
  const hook = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(body));
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  const port = (hook.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/hook`, bodies, close: () => hook.close() };
}

/** The auditor subscribes to a task held at its gate; returns the task's id. */
async function auditorSubscribes(key: string, hookUrl: string): Promise<string> {
  model.script(key, [{ content: [say('Waiting first.'), useTool('gate', { key })] }, ...sensitiveTurns()]);
  const auditor = await s.client('auditor', 'agent', s.servers[1]);
  const started = (await auditor.sendMessage(sendNow(message(`${key}: whose account?`)))) as Task;
  await gate(key).entered;
  await auditor.createTaskPushNotificationConfig({
    tenant: '',
    id: `hook-${key}`,
    taskId: started.id,
    url: hookUrl,
    token: '',
    authentication: undefined,
  });
  return started.id;
}

const completed = (bodies: any[]) => bodies.find((b) => b.statusUpdate?.status?.state === 'TASK_STATE_COMPLETED');

// Runs in order: the first test demotes the auditor, the second removes them.
describe("A2A push reads the subscriber's roles again for each delivery", () => {
  it("an auditor demoted to end user in the token file: the webhook's next payloads are the end user's view", async () => {
    const hook = await webhook();
    try {
      await auditorSubscribes('push-demoted', hook.url);
      rewriteAuditor('end_user');
      gate('push-demoted').open();
      await eventually('the end at the webhook', async () => completed(hook.bodies));
      const artifact = hook.bodies.find((b) => b.artifactUpdate);
      expect(JSON.stringify(artifact)).toContain('belongs to');
      // Before the fix the follower read as the auditor of the first request: the raw account.
      expect(JSON.stringify(hook.bodies)).not.toContain(ACCOUNT);
    } finally {
      hook.close();
    }
  });

  it('a subscriber removed from the token file gets nothing more, and the server says why', async () => {
    const hook = await webhook();
    try {
      // Back as an auditor: the token file is re-read without a restart.
      const file = TokenFile.parse(JSON.parse(fs.readFileSync(s.tokenFile, 'utf8')));
      const tokens = file.tokens.map((e) => (e.id === 'auditor' ? { ...e, roles: ['auditor'] } : e));
      fs.writeFileSync(s.tokenFile, JSON.stringify({ tokens }), { mode: 0o600 });
      await auditorSubscribes('push-removed', hook.url);
      rewriteAuditor('removed');
      gate('push-removed').open();
      await eventually('the follower stopped', async () =>
        s.logs.some((l) => l.includes('no longer who they were')) ? true : undefined,
      );
      expect(completed(hook.bodies)).toBeUndefined();
      expect(JSON.stringify(hook.bodies)).not.toContain(ACCOUNT);
    } finally {
      hook.close();
    }
  });
});
