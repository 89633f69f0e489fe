import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { say, useTool, createScriptedModel } from '../../src/activities/models/scripted-model';
import { AgentClient } from '../../src/client/agent-client';
import { connectNative, TemporalConnectionError } from '../../src/connection';
import { weatherTool } from '../../src/demo/weather-tool';
import { freePort } from '../../src/dev-server/probes/free-port';
import { TEMPORAL_SERVER_VERSION } from '../../src/dev-server/cluster';
import { AgentResult } from '../../src/domain';
import { createAgentWorker } from '../../src/worker';
import { cliEnv, runCli, spawnCli, type CliProcess } from '../helpers/cli-process';
import { scriptedInput } from '../helpers/scripted-input';
import { mtlsFrontend, startTlsProxy, type SecuredFrontend } from '../helpers/secured-frontend';
import { makeTestCertificates, type TestCertificates } from '../helpers/test-certificates';
import { installQuietRuntime } from '../helpers/temporal-env';
import { runThroughApi } from '../server/server-harness';

const API_KEY = `tl-test-key-${randomUUID()}`;
const CLIENT_PAIR_ADVICE = 'set TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH';
/** A line of a JavaScript stack trace. */
const STACK_LINE = /^\s+at .+/m;

let certs: TestCertificates;
let mtls: SecuredFrontend;
let apiKeyFrontend: SecuredFrontend;

beforeAll(async () => {
  installQuietRuntime();
  certs = makeTestCertificates();
  mtls = await mtlsFrontend(certs);
  apiKeyFrontend = await startTlsProxy({ certs, requireClientCertificate: false, apiKey: API_KEY });
});
afterAll(async () => {
  await mtls?.stop();
  await apiKeyFrontend?.stop();
  certs?.remove();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** The TEMPORAL_* variables of a client of `frontend` that holds the accepted certificate pair. */
function mtlsVariables(frontend: SecuredFrontend): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: frontend.address,
    TEMPORAL_NAMESPACE: frontend.namespace,
    TEMPORAL_TLS_CLIENT_CERT_PATH: frontend.clientCert,
    TEMPORAL_TLS_CLIENT_KEY_PATH: frontend.clientKey,
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: frontend.caCert,
    TEMPORAL_TLS_SERVER_NAME: frontend.serverName,
  };
}

/** Stubs the variables in this process's environment (undone after each test): what AgentClient and createAgentWorker read. */
function stubVariables(variables: Record<string, string>): void {
  for (const name of Object.keys(process.env)) if (name.startsWith('TEMPORAL_')) vi.stubEnv(name, undefined);
  vi.stubEnv('TEMPORAL_CONFIG_FILE', '/dev/null');
  for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value);
}

/** One scripted agent run: a get_weather call, then an answer quoting it. */
const weatherScript = () =>
  createScriptedModel([
    { content: [say('Calling get_weather for the task.'), useTool('get_weather', { location: 'Paris' })] },
    // 'true' when the tool's reading came back through the worker.
    { content: (r) => [say(String(JSON.stringify(r.messages.at(-1)?.content).includes('light rain')))] },
  ]);

/**
 * With only `variables` in the environment (no address or connection in code), createAgentWorker
 * and AgentClient.connect connect, and a scripted run completes through the worker's tool.
 * Resolves to what the frontend says of itself, to tell a real server from the proxy.
 */
async function runWithVariablesOnly(variables: Record<string, string>): Promise<{ serverVersion: string }> {
  stubVariables(variables);
  const taskQueue = `secured-lib-${randomUUID()}`;
  const model = weatherScript();
  const agentWorker = await createAgentWorker({
    taskQueue,
    tools: [weatherTool],
    models: { scripted: model },
    workflowBundle: { codePath: inject('workflowBundlePath') },
  });
  const agents = await AgentClient.connect({ taskQueue });
  try {
    const result = await agentWorker.runUntil(async () =>
      (await agents.start(scriptedInput('Weather in Paris?'))).result(),
    );
    expect(result).toMatchObject({ success: true, finalAnswer: 'true' });
    model.verify();
    const info = await agents.client.connection.workflowService.getSystemInfo({});
    return { serverVersion: info.serverVersion };
  } finally {
    await agents.client.connection.close();
  }
}

describe('frontend mTLS: the CLI, serve, a worker and AgentClient connect with TEMPORAL_TLS_* variables', () => {
  const taskQueue = `mtls-cli-${randomUUID()}`;
  const env = (): NodeJS.ProcessEnv => cliEnv({ ...mtlsVariables(mtls), THOUGHTLINE_TASK_QUEUE: taskQueue });
  let worker: CliProcess | undefined;
  afterAll(async () => {
    worker?.child.kill('SIGTERM');
    await worker?.exited;
  });

  it('`thoughtline worker` and `thoughtline run` complete a run through the mTLS frontend', async () => {
    worker = spawnCli(['worker', '--unversioned'], env());
    await worker.waitFor(/worker polling task queue/);
    expect(worker.output()).toContain(
      `from TEMPORAL_ADDRESS (namespace ${mtls.namespace}, over TLS with a client certificate)`,
    );

    const run = await runCli(['run', 'What is the weather in Paris?', '--json', '--no-worker'], env());
    expect(run.code, run.stderr).toBe(0);
    const result = AgentResult.parse(JSON.parse(run.stdout));
    expect(result).toMatchObject({ success: true, terminationReason: 'success' });
    expect(result.finalAnswer).toContain('light rain');
    // The worker's polls and the CLI's start went through the frontend (a proxy shows them).
    if (mtls.seen) {
      const methods = new Set(mtls.seen.calls.map((c) => c.method.split('/').pop()));
      expect(methods).toContain('PollWorkflowTaskQueue');
      expect(methods).toContain('StartWorkflowExecution');
    }
  });

  // On the task queue of the worker the test above started.
  it('`thoughtline serve` starts a run over HTTP that the worker completes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-mtls-serve-'));
    const port = await freePort();
    let server: CliProcess | undefined;
    try {
      const tokens = path.join(dir, 'tokens.json');
      const token = await runCli(['token', '--id', 'carol', '--roles', 'developer', '--file', tokens], env());
      expect(token.code, token.stderr).toBe(0);
      server = spawnCli(['serve', '--port', String(port), '--tokens', tokens], env());
      await server.waitFor(/serving http:\/\/127\.0\.0\.1:\d+/);
      const base = `http://127.0.0.1:${port}`;
      const done = await runThroughApi(base, token.stdout.trim());
      expect(done).toMatchObject({ chainStatus: 'completed' });
    } finally {
      server?.child.kill('SIGTERM');
      await server?.exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('AgentClient.connect and createAgentWorker take the same variables, with no address or connection in code', async () => {
    const { serverVersion } = await runWithVariablesOnly(mtlsVariables(mtls));
    // On a cluster (no proxy in between) the frontend is the real server at the pinned version.
    if (!mtls.seen) expect(serverVersion).toBe(TEMPORAL_SERVER_VERSION);
  });
});

describe('frontend mTLS: a client without the right certificate is refused, saying what to set', () => {
  it('`thoughtline run` without a client certificate exits 1 with the variables to set, and no stack trace', async () => {
    const { TEMPORAL_TLS_CLIENT_CERT_PATH: _c, TEMPORAL_TLS_CLIENT_KEY_PATH: _k, ...noPair } = mtlsVariables(mtls);
    const refusedBefore = mtls.seen?.refusedHandshakes ?? 0;
    const run = await runCli(['run', 'What is the weather in Paris?', '--json'], cliEnv(noPair));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `thoughtline: cannot connect to Temporal at ${mtls.address}: it requires a client certificate (mTLS): ${CLIENT_PAIR_ADVICE}`,
    );
    expect(run.stderr).not.toMatch(STACK_LINE);
    if (mtls.seen) expect(mtls.seen.refusedHandshakes).toBeGreaterThan(refusedBefore);
  });

  it('`thoughtline worker` without one, likewise', async () => {
    const { TEMPORAL_TLS_CLIENT_CERT_PATH: _c, TEMPORAL_TLS_CLIENT_KEY_PATH: _k, ...noPair } = mtlsVariables(mtls);
    const run = await runCli(['worker'], cliEnv(noPair));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(CLIENT_PAIR_ADVICE);
    expect(run.stderr).not.toMatch(STACK_LINE);
  });

  it('AgentClient.connect without one rejects with a TemporalConnectionError saying the same', async () => {
    const error = await AgentClient.connect({
      address: mtls.address,
      namespace: mtls.namespace,
      tls: { serverRootCACertificate: fs.readFileSync(mtls.caCert), serverNameOverride: mtls.serverName },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TemporalConnectionError);
    expect((error as Error).message).toContain(CLIENT_PAIR_ADVICE);
  });

  it('names the fix for a stranger certificate, an unknown CA, a wrong server name, and TLS off', async () => {
    const ca = fs.readFileSync(mtls.caCert);
    const pair = { crt: fs.readFileSync(mtls.clientCert), key: fs.readFileSync(mtls.clientKey) };
    const stranger = { crt: fs.readFileSync(certs.strangerCert), key: fs.readFileSync(certs.strangerKey) };
    const refusal = (tls: Parameters<typeof connectNative>[0]['tls']) =>
      connectNative({ address: mtls.address, ...(tls === undefined ? {} : { tls }) }).then(
        async (c) => {
          await c.close();
          return 'connected';
        },
        (e: Error) => (e instanceof TemporalConnectionError ? e.message : `not explained: ${e.message}`),
      );
    expect(
      await refusal({ serverRootCACertificate: ca, serverNameOverride: mtls.serverName, clientCertPair: stranger }),
    ).toMatch(
      /it refused the client certificate: check that TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH/,
    );
    expect(await refusal({ serverNameOverride: mtls.serverName, clientCertPair: pair })).toMatch(
      /not signed by a CA this process trusts: set TEMPORAL_TLS_SERVER_CA_CERT_PATH/,
    );
    expect(
      await refusal({ serverRootCACertificate: ca, serverNameOverride: 'wrong.example', clientCertPair: pair }),
    ).toMatch(/its certificate is not for that name .*: set TEMPORAL_TLS_SERVER_NAME/);
    expect(await refusal(undefined)).toMatch(/the server expects TLS: set TEMPORAL_TLS=true/);
    // And the other way round: TLS towards the plain dev server.
    const plain = await connectNative({ address: inject('temporalAddress'), tls: true }).catch((e: Error) => e);
    expect((plain as Error).message).toMatch(/it does not speak TLS: set TEMPORAL_TLS=false/);
  });
});

describe('an API key (Temporal Cloud style): TLS implied, sent as a bearer header, never printed', () => {
  const keyVariables = (key: string): Record<string, string> => ({
    TEMPORAL_ADDRESS: apiKeyFrontend.address,
    TEMPORAL_NAMESPACE: apiKeyFrontend.namespace,
    TEMPORAL_API_KEY: key,
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: apiKeyFrontend.caCert,
    TEMPORAL_TLS_SERVER_NAME: apiKeyFrontend.serverName,
  });

  it('a worker and AgentClient from TEMPORAL_API_KEY (no TEMPORAL_TLS) complete a run; every call carried the key', async () => {
    await runWithVariablesOnly(keyVariables(API_KEY));
    const calls = apiKeyFrontend.seen!.calls;
    const methods = new Set(calls.map((c) => c.method.split('/').pop()));
    expect(methods).toContain('PollWorkflowTaskQueue');
    expect(methods).toContain('StartWorkflowExecution');
    expect(calls.filter((c) => c.authorization !== `Bearer ${API_KEY}`)).toEqual([]);
  });

  it('`thoughtline run` with a wrong key exits 1 naming TEMPORAL_API_KEY, and prints no key', async () => {
    const wrongKey = `wrong-${randomUUID()}`;
    const run = await runCli(['run', 'What is the weather in Paris?', '--json'], cliEnv(keyVariables(wrongKey)));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the server refused the API key: check TEMPORAL_API_KEY');
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(run.stdout + run.stderr).not.toContain(wrongKey);
    expect(apiKeyFrontend.seen!.calls.some((c) => c.authorization === `Bearer ${wrongKey}`)).toBe(true);
  });

  it('a bad setting fails before connecting: exit 1, the variable named, the key not printed', async () => {
    const run = await runCli(
      ['run', 'x', '--json'],
      cliEnv({ ...keyVariables(API_KEY), TEMPORAL_TLS_SERVER_CA_CERT_PATH: '/nonexistent/ca.pem' }),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "thoughtline: TEMPORAL_TLS_SERVER_CA_CERT_PATH is '/nonexistent/ca.pem', which cannot be read (no such file)",
    );
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(run.stdout + run.stderr).not.toContain(API_KEY);
  });
});
