import type { CommandSpec } from '../../spec/command-line';
import { flag, positiveInteger, text, texts } from '../../spec/flags';
import { OIDC_OPTIONS, readOidcFlags } from '../../spec/oidc-options';
import { POLICY_OPTION } from '../../spec/policy-option';
import { serveHttp } from './serve-http';
import { MAX_ALLOWED_ORIGINS, parseAllowedOrigin } from '../../../server/cross-origin';
import { UsageError } from '../../spec/usage-error';

export const SERVE_COMMAND: CommandSpec = {
  name: 'serve',
  group: 'Serve and protocols',
  summary: 'the HTTP API (/v1, A2A, AG-UI) and the viewer, until Ctrl-C',
  description:
    'Serve the HTTP API (/v1, OpenAPI at /v1/openapi.json), the A2A and AG-UI doors and the viewer until Ctrl-C (docs/serve.md). With no token file and no OIDC it writes one for "you" and prints the URL to open.',
  examples: ['thoughtline serve --with-worker', 'thoughtline serve --port 9090 --policy ./visibility-policy.yaml'],
  args: [],
  options: {
    port: text('N', 'the port', { default: '8080' }),
    host: text('H', 'the address to listen on', { default: '127.0.0.1' }),
    'with-worker': flag('also run a worker in this process'),
    tools: text('FILE', 'with --with-worker: a JS module exporting "tools" (defineTool results) and "agents"'),
    agents: text('FILE', 'the module whose agents A2A and AG-UI offer, besides the generic agent', {
      default: "--tools's",
    }),
    mcp: text('FILE', 'with --with-worker: MCP servers whose tools the worker offers'),
    unversioned: flag('with --with-worker: declare no worker version'),
    'keep-current': flag('with --with-worker: declare a version without making it current'),
    tokens: text('FILE', 'token hashes', { env: 'THOUGHTLINE_TOKENS', default: '.thoughtline/tokens.json' }),
    ...OIDC_OPTIONS,
    'signing-keys': text('FILE', 'sign every decision with these Ed25519 keys', {
      env: 'THOUGHTLINE_SIGNING_KEYS',
      default: '.thoughtline/signing-keys.json, made on first start',
    }),
    'require-signatures': flag('runs started here refuse decisions without a valid signature'),
    store: text('VALUE', 'the chain store it keeps: sqlite:PATH, a postgres:// URL, or off', {
      env: 'THOUGHTLINE_STORE',
      default: '.thoughtline/store.sqlite',
    }),
    ...POLICY_OPTION,
    triggers: text('FILE', 'webhook triggers: name → agent, task and the variable holding its secret', {
      env: 'THOUGHTLINE_TRIGGERS',
    }),
    datasets: text(
      'DIR',
      'where "add to dataset" appends cases from runs, auditors only: DIR/tenants/<tenant>/<name>.jsonl (no tenant: DIR/<name>.jsonl)',
    ),
    'allow-origin': texts(
      'ORIGIN',
      'a browser origin whose pages may call the API (CORS), e.g. https://app.example.com',
    ),
  },
  run: async (l) => {
    const port = positiveInteger(l, 'port', 65_535);
    const given = (name: string): string | undefined => l.text(name);
    const oidc = readOidcFlags(l);
    return serveHttp({
      ...(port ? { port } : {}),
      ...(given('host') ? { host: given('host')! } : {}),
      withWorker: l.flag('with-worker'),
      ...(given('tools') ? { tools: given('tools')! } : {}),
      ...(given('agents') ? { agents: given('agents')! } : {}),
      ...(given('mcp') ? { mcp: given('mcp')! } : {}),
      versioning: { unversioned: l.flag('unversioned'), keepCurrent: l.flag('keep-current') },
      ...(given('tokens') ? { tokens: given('tokens')! } : {}),
      oidc,
      ...(given('signing-keys') ? { signingKeys: given('signing-keys')! } : {}),
      requireSignatures: l.flag('require-signatures'),
      ...(given('store') !== undefined ? { store: given('store')! } : {}),
      ...(given('policy') !== undefined ? { policy: given('policy')! } : {}),
      ...(given('triggers') !== undefined ? { triggers: given('triggers')! } : {}),
      ...(given('datasets') !== undefined ? { datasets: given('datasets')! } : {}),
      allowOrigins: allowedOrigins(l.texts('allow-origin') ?? []),
    });
  },
};

/** `--allow-origin` values, each checked now: a value that is no origin is a usage error, before anything connects. */
function allowedOrigins(values: readonly string[]): string[] {
  if (values.length > MAX_ALLOWED_ORIGINS)
    throw new UsageError(`--allow-origin: at most ${MAX_ALLOWED_ORIGINS} origins.`);
  return values.map((value) => {
    try {
      return parseAllowedOrigin(value);
    } catch (err) {
      throw new UsageError(`--allow-origin ${(err as Error).message}`);
    }
  });
}
