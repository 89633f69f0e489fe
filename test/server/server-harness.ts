import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ModelProvider } from '../../src/activities';
import { createScriptedModel, type ScriptedModel, type ScriptedTurn } from '../../src/activities/models/scripted-model';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { tokenSha256 } from '../../src/server/auth/token-hash';
import { createServer, type CreateServerOptions, type RunningServer } from '../../src/server/create-server';
import type { ToolDefinition } from '../../src/tools/define-tool';
import type { AgentWorkerOptions } from '../../src/worker';
import { createHarness, type AgentHarness, type TestEnv } from '../helpers/temporal-env';
import { inMemorySigner } from '../../src/server/signing/keyring-signer';
import type { DecisionSigner } from '../../src/server/signing/decision-signer';

/** The people of the server tests: one token each. */
export const PEOPLE = {
  dev: { roles: ['developer'], tenant: 'acme' },
  ops: { roles: ['ops'], tenant: 'acme' },
  user: { roles: [], tenant: 'acme' },
  auditor: { roles: ['auditor'], tenant: 'acme' },
  rival: { roles: ['developer', 'ops', 'auditor'], tenant: 'globex' },
  solo: { roles: ['developer'] },
} as const satisfies Record<string, { roles: readonly string[]; tenant?: string }>;
export type Person = keyof typeof PEOPLE;

/** Writes a token file granting PEOPLE; returns the file and each person's token. */
export function writeTokenFile(dir: string): { file: string; tokens: Record<Person, string> } {
  const tokens = Object.fromEntries(
    Object.keys(PEOPLE).map((id) => [id, `tl_test_${id}_${Math.random().toString(36).slice(2)}`]),
  ) as Record<Person, string>;
  const file = path.join(dir, 'tokens.json');
  const entries = Object.entries(PEOPLE).map(([id, p]) => ({
    sha256: tokenSha256(tokens[id as Person]),
    id,
    roles: [...p.roles],
    ...('tenant' in p ? { tenant: p.tenant } : {}),
  }));
  fs.writeFileSync(file, JSON.stringify({ tokens: entries }), { mode: 0o600 });
  return { file, tokens };
}

/**
 * A scripted model per run, chosen by the longest key the run's task contains: one worker serves
 * every run of a test file. A task without a known key fails its model call.
 */
export function routedModel(): ModelProvider & { script(key: string, turns: readonly ScriptedTurn[]): ScriptedModel } {
  const scripts = new Map<string, ScriptedModel>();
  return {
    name: 'scripted',
    script(key, turns) {
      const model = createScriptedModel(turns);
      scripts.set(key, model);
      return model;
    },
    async complete(request, signal, hooks) {
      const first = request.messages[0];
      const text = first?.content.map((b) => ('text' in b ? b.text : '')).join('') ?? '';
      // The longest key the task holds: a run of `[list-live]` is not `live`'s.
      let chosen: string | undefined;
      for (const key of scripts.keys()) if (text.includes(key) && key.length > (chosen?.length ?? 0)) chosen = key;
      if (chosen !== undefined) return scripts.get(chosen)!.complete(request, signal, hooks);
      throw new Error(`no script for task ${text.slice(0, 80)}`);
    },
  };
}

export interface ServerHarness {
  h: AgentHarness;
  server: RunningServer;
  tokens: Record<Person, string>;
  tokenFile: string;
  /** The server's signer: another server in front of the same runs shares it, as serves share a keyring. */
  signer: DecisionSigner;
  logs: string[];
  /** fetch against the server as a person (or with no token). */
  call(
    who: Person | undefined,
    method: string,
    url: string,
    body?: unknown,
  ): Promise<{ status: number; json: any; headers: Headers }>;
  close(): Promise<void>;
}

/** A worker on its own queue (in this process), and the server in front of it, with PEOPLE's tokens. */
export async function startServerHarness(
  env: TestEnv,
  deps: {
    tools: readonly ToolDefinition[];
    model: ModelProvider;
    server?: Partial<CreateServerOptions>;
    /** Agents the worker registers (runs start them by name); default none. */
    agents?: AgentWorkerOptions['agents'];
    /** Guardrails the worker registers (runs name them); default none. */
    guardrails?: AgentWorkerOptions['guardrails'];
  },
): Promise<ServerHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-server-'));
  const { file, tokens } = writeTokenFile(dir);
  const h = await createHarness(env, {
    tools: deps.tools,
    models: { scripted: deps.model },
    ...(deps.agents ? { agents: deps.agents } : {}),
    ...(deps.guardrails ? { guardrails: deps.guardrails } : {}),
  });
  const running = h.worker.run();
  const logs: string[] = [];
  const signer = deps.server?.signer ?? inMemorySigner();
  const server = await createServer({
    agents: h.agents,
    // The server verifies roles only through its signer (as serve always has one).
    signer,
    auth: createTokenFileAuthenticator({ file, log: (l) => logs.push(l) }),
    port: 0,
    log: (l) => logs.push(l),
    ...deps.server,
  });
  const call: ServerHarness['call'] = async (who, method, url, body) => {
    const headers: Record<string, string> = {};
    if (who) headers.authorization = `Bearer ${tokens[who]}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${server.url}${url}`, {
      method,
      headers,
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: response.status, json, headers: response.headers };
  };
  return {
    h,
    server,
    tokens,
    tokenFile: file,
    signer,
    logs,
    call,
    close: async () => {
      await server.close();
      h.worker.shutdown();
      await running;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls until `probe` returns something; fails naming `what`. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts a run over HTTP as `who` with `body` (its model scripted by the caller) and waits until it has completed; its id. */
export async function startAndComplete(s: ServerHarness, who: Person, body: Record<string, unknown>): Promise<string> {
  const started = await s.call(who, 'POST', '/v1/runs', body);
  if (started.status !== 201)
    throw new Error(`POST /v1/runs answered ${started.status}: ${JSON.stringify(started.json)}`);
  const runId = started.json.runId as string;
  await eventually(`${runId} to end`, async () => {
    const { json } = await s.call(who, 'GET', `/v1/runs/${runId}`);
    return json.status === 'completed' ? json : undefined;
  });
  return runId;
}

/**
 * Starts a run through `serve`'s API at `base` with `token` and waits (up to a minute) for it to
 * complete; the run's record, or a failed expectation naming the status the API answered.
 */
export async function runThroughApi(
  base: string,
  token: string,
  task = 'What is the weather in Paris?',
): Promise<{ runId: string; status: string; [key: string]: unknown }> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const started = await fetch(`${base}/v1/runs`, { method: 'POST', headers, body: JSON.stringify({ task }) });
  if (started.status !== 201) throw new Error(`POST /v1/runs answered ${started.status}: ${await started.text()}`);
  const { runId } = (await started.json()) as { runId: string };
  return eventually(
    'the run to complete',
    async () => {
      const run = (await (await fetch(`${base}/v1/runs/${runId}`, { headers })).json()) as {
        runId: string;
        status: string;
      };
      return run.status === 'completed' ? run : undefined;
    },
    60_000,
  );
}
