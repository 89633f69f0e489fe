import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { UpdateRefusedError, sendUpdate } from '../../src/client/errors/update-refused-error';
import { createServer, type RunningServer } from '../../src/server/create-server';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { generateSigningKey } from '../../src/server/signing/generate-signing-key';
import { loadDecisionSigner } from '../../src/server/signing/load-decision-signer';
import { createKeyringFile } from '../../src/server/signing/create-keyring-file';
import { raiseBudgetUpdate, steerSignal } from '../../src/workflows/messages';
import { cliEnv, runCli } from '../helpers/cli-process';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { eventually, routedModel, startServerHarness, type ServerHarness } from '../server/server-harness';

/*
 * Issue 78, defects 2, 5 and 6, against a running server that requires signatures on the real
 * dev server: a signed raise or instruction copied from a run's history is refused when sent
 * again; roles named on the command line do not satisfy a rule; an end user cannot raise a run
 * that names no raiser roles.
 */
const EventType = temporal.api.enums.v1.EventType;
const env = useTestEnv();
const model = routedModel();
let s: ServerHarness;
let server: RunningServer;

beforeAll(async () => {
  s = await startServerHarness(env, { tools: testTools().tools, model });
  const keyring = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tl-keys-')), 'keys.json');
  fs.writeFileSync(
    keyring,
    JSON.stringify({ keys: [{ id: 'k-r', privateKey: generateSigningKey('k-r').privateKey }] }),
    {
      mode: 0o600,
    },
  );
  server = await createServer({
    agents: s.h.agents,
    auth: createTokenFileAuthenticator({ file: s.tokenFile }),
    signer: loadDecisionSigner(keyring),
    requireSignatures: true,
    port: 0,
  });
});
afterAll(async () => {
  await server?.close();
  await s?.close();
});

const call = (who: keyof ServerHarness['tokens'], method: string, url: string, body?: unknown) =>
  fetch(`${server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${s.tokens[who]}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  }).then(async (r) => ({ status: r.status, json: (await r.json().catch(() => ({}))) as any }));

/** `lookups` lookups, then the answer: with maxIterations 1, the run pauses before each step after the first. */
const script = (key: string, lookups: number) =>
  model.script(key, [
    ...Array.from({ length: lookups }, (_, i) => ({
      content: [say(`Looking up ${i}.`), useTool('lookup', { key: 'a' }, `toolu_${key}_${i}`)],
    })),
    { content: [useTool('finish', { result: 'a is 10' }, `toolu_${key}_end`)] },
  ]);

/**
 * The run's pause once it is paused at a pause other than the one paused at `after` (its
 * `pausedAt`, a field the code before issue 78 shows too, so on that code these tests fail on
 * what they check, not on a wait).
 */
const pauseOf = (runId: string, who: keyof ServerHarness['tokens'] = 'dev', after?: string) =>
  eventually('a pause', async () => {
    const { json } = await call(who, 'GET', `/v1/runs/${runId}`);
    const pause = json.progress?.budgetPause;
    return pause && pause.pausedAt !== after ? pause : undefined;
  });

/** The payloads of one update or signal, as the run's history recorded them. */
async function recorded(runId: string, name: string): Promise<unknown[]> {
  const history = await env.client.workflow.getHandle(runId).fetchHistory();
  const converter = env.client.options.loadedDataConverter.payloadConverter;
  return (history.events ?? []).flatMap((e) => {
    const update = e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input;
    if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED && update?.name === name)
      return [converter.fromPayload(update.args!.payloads![0]!)];
    const signal = e.workflowExecutionSignaledEventAttributes;
    if (signal?.signalName === name) return [converter.fromPayload(signal.input!.payloads![0]!)];
    return [];
  });
}

const thoughts = async (runId: string) =>
  (await s.h.agents.getHandle(runId).result()).chain.steps.flatMap((st) =>
    st.type === 'thinking' ? [st.thought] : [],
  );

describe('decisions are single-use and bound to what they answer (serve --require-signatures)', () => {
  it('refuses a signed raise copied from history at the next pause, and a signed instruction sent twice', async () => {
    script('replay', 2);
    const start = await call('dev', 'POST', '/v1/runs', {
      task: 'replay: find a',
      model: SCRIPTED_MODEL,
      maxIterations: 1,
      onBudget: 'ask',
      budgetRaiserRoles: ['ops'],
    });
    const runId = start.json.runId as string;
    const first = await pauseOf(runId);
    // A steer through the server, then its signed payload sent again straight to Temporal.
    expect((await call('ops', 'POST', `/v1/runs/${runId}/steer`, { text: 'Be brief.' })).status).toBe(202);
    const [steer] = await recorded(runId, steerSignal.name);
    await s.h.agents.getHandle(runId).signal(steerSignal, steer as never);

    expect((await call('ops', 'POST', `/v1/runs/${runId}/budget`, { iterations: 1 })).status).toBe(200);
    const second = await pauseOf(runId, 'dev', first.pausedAt);
    // The signed raise of the first pause, copied from history, at the second pause.
    const [raise] = await recorded(runId, raiseBudgetUpdate.name);
    const replayed = await sendUpdate(() =>
      s.h.agents.getHandle(runId).executeUpdate(raiseBudgetUpdate, { args: [raise as never] }),
    ).catch((err: unknown) => err);
    expect(replayed).toBeInstanceOf(UpdateRefusedError);
    expect((replayed as Error).message).toMatch(
      new RegExp(`answers the pause ${first.pauseId}; the run is paused at ${second.pauseId}|already used`),
    );
    // What binds them: the raise names its pause, the instruction carries the server's nonce.
    expect(first.pauseId).toMatch(/^max_iterations@/);
    expect(raise).toMatchObject({ pauseId: first.pauseId, by: { id: 'ops', roles: ['ops'] } });
    expect(steer).toMatchObject({ text: 'Be brief.', nonce: expect.any(String), signature: expect.anything() });
    expect((await call('ops', 'POST', `/v1/runs/${runId}/budget`, { iterations: 1 })).status).toBe(200);

    const said = await thoughts(runId);
    expect(said.filter((t) => t.startsWith('Budget raised by ops (ops): +1 iterations'))).toHaveLength(2);
    expect(said.filter((t) => t.startsWith('Instruction from ops: Be brief.'))).toHaveLength(1);
    expect(said).toContainEqual(expect.stringMatching(/^Refused a "steer" message: .*already used in this run/));
    expect(await recorded(runId, raiseBudgetUpdate.name)).toHaveLength(2);
  });

  it('refuses an end user’s raise of a run naming no raiser roles (403, naming the role); a developer raises it', async () => {
    script('default', 1);
    const start = await call('user', 'POST', '/v1/runs', {
      task: 'default: find a',
      model: SCRIPTED_MODEL,
      maxIterations: 1,
      onBudget: 'ask',
    });
    const runId = start.json.runId as string;
    const pause = await pauseOf(runId, 'user');
    const refused = await call('user', 'POST', `/v1/runs/${runId}/budget`, { iterations: 1_000 });
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain('needs one of the roles developer, operator');
    expect(pause.raiserRoles).toEqual(['developer', 'operator']);
    expect((await call('dev', 'POST', `/v1/runs/${runId}/budget`, { iterations: 1 })).status).toBe(200);
    expect(await thoughts(runId)).toContainEqual(expect.stringMatching(/^Budget raised by dev \(developer\): /));
  });
});

describe('roles named on the command line are claimed, not verified', () => {
  it('`raise-budget --as mallory --roles ops` (straight to Temporal) is refused where the run needs ops; signed with the keyring the run holds, it counts', async () => {
    script('mallory', 1);
    const keyring = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tl-keys-')), 'signing-keys.json');
    createKeyringFile(keyring);
    const handle = await s.h.agents.start({
      task: 'mallory: find a',
      model: SCRIPTED_MODEL,
      maxIterations: 1,
      onBudget: 'ask',
      budgetRaiserRoles: ['ops'],
      // What serve (without --require-signatures) and `thoughtline run` give a run: its keys, unsigned decisions allowed.
      signedDecisions: { publicKeys: loadDecisionSigner(keyring).publicKeys(), required: false },
    });
    const id = handle.workflowId;
    await eventually('the pause', async () => (await s.h.agents.status(id)).budgetPause);
    const raise = ['raise-budget', id, '--iterations', '1', '--as', 'mallory', '--roles', 'ops'];
    const cli = await runCli(raise, cliEnv({}));
    expect(cli.code, cli.stdout).toBe(1);
    expect(cli.stderr).toContain('it needs one of the roles ops, verified by a signature');
    expect(cli.stderr).toContain('mallory claimed ops, not verified');
    expect((await s.h.agents.status(id)).budgetPause).toBeDefined();
    expect(JSON.stringify(await s.h.agents.chain(id))).not.toContain('Budget raised by mallory');

    // The control: the same command signed with the keyring (its holder is as trusted as the server).
    const signed = await runCli([...raise, '--signing-keys', keyring], cliEnv({}));
    expect(signed.code, signed.stderr).toBe(0);
    expect(await thoughts(id)).toContainEqual(
      expect.stringMatching(/^Budget raised by mallory \(ops\): \+1 iterations/),
    );
  });
});
