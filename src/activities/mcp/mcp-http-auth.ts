import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpConfig, McpHttpAuth } from '../../domain/tools/mcp-config';
import { InvalidMcpConfigError } from './load-mcp-config';

/** A token is fetched again this long before the endpoint says it expires. */
const EXPIRY_MARGIN_MS = 60_000;
/** Longest the worker waits for the token endpoint. */
const TOKEN_TIMEOUT_MS = 30_000;
/** Most of a token endpoint's answer the worker reads. */
const MAX_TOKEN_RESPONSE_CHARS = 64 * 1024;

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The secrets every server's `auth` names, read from the worker's environment: checked when the
 * worker starts (a name that is not set fails the start, before any run meets it) and handed to
 * the redactor, so no result, error or log shows them.
 */
export function mcpAuthSecrets(config: McpConfig, env: Environment): string[] {
  const values: string[] = [];
  for (const [server, settings] of Object.entries(config.mcpServers)) {
    if (!('url' in settings) || !settings.auth) continue;
    for (const name of envNames(settings.auth)) {
      const value = env[name];
      if (!value)
        throw new InvalidMcpConfigError(
          `The MCP server "${server}" authenticates with the environment variable ${name}, which is not set.`,
        );
      values.push(value);
    }
  }
  return values;
}

function envNames(auth: McpHttpAuth): string[] {
  return auth.type === 'bearer' ? [auth.tokenEnv] : [auth.clientIdEnv, auth.clientSecretEnv];
}

/**
 * The fetch a server's HTTP transport uses: every request carries `Authorization: Bearer …`, the
 * token read from the environment (`bearer`) or got from the token endpoint with the client's id
 * and secret (`client_credentials`, RFC 6749 §4.4, the secret sent as HTTP Basic) and kept until
 * shortly before it expires. A 401 fetches a new token once and sends the request again. Tokens
 * live in this closure only: never in a run's history, its chain or an error message.
 */
export function authorizedFetch(
  server: string,
  auth: McpHttpAuth,
  env: Environment,
  base: FetchLike = fetch,
  now: () => number = Date.now,
): FetchLike {
  let cached: { token: string; until: number } | undefined;

  async function token(fresh: boolean): Promise<string> {
    if (auth.type === 'bearer') return required(env, auth.tokenEnv, server);
    if (!fresh && cached && cached.until > now()) return cached.token;
    cached = await clientCredentials(server, auth, env, base, now);
    return cached.token;
  }

  return async (url, init) => {
    const send = async (fresh: boolean) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${await token(fresh)}`);
      return base(url, { ...init, headers });
    };
    const first = await send(false);
    if (first.status !== 401 || auth.type === 'bearer') return first;
    await first.body?.cancel().catch(() => undefined);
    return send(true);
  };
}

async function clientCredentials(
  server: string,
  auth: Extract<McpHttpAuth, { type: 'client_credentials' }>,
  env: Environment,
  base: FetchLike,
  now: () => number,
): Promise<{ token: string; until: number }> {
  const id = required(env, auth.clientIdEnv, server);
  const secret = required(env, auth.clientSecretEnv, server);
  const form = new URLSearchParams({ grant_type: 'client_credentials', ...(auth.scope ? { scope: auth.scope } : {}) });
  const basic = Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64');
  let response: Response;
  try {
    response = await base(auth.tokenUrl, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    });
  } catch (err) {
    throw new Error(`the token endpoint of "${server}" could not be reached: ${(err as Error).message}`);
  }
  const text = (await response.text()).slice(0, MAX_TOKEN_RESPONSE_CHARS);
  let body: { access_token?: unknown; expires_in?: unknown; error?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Said below: neither the status nor a token.
  }
  // Only the endpoint's error code is quoted: its text could echo what was sent.
  if (!response.ok || typeof body.access_token !== 'string' || body.access_token.length === 0) {
    const code = typeof body.error === 'string' ? ` (${body.error.slice(0, 100)})` : '';
    throw new Error(`the token endpoint of "${server}" answered ${response.status}${code} without a token`);
  }
  const seconds = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3_600;
  return { token: body.access_token, until: now() + Math.max(0, seconds * 1_000 - EXPIRY_MARGIN_MS) };
}

function required(env: Environment, name: string, server: string): string {
  const value = env[name];
  if (!value) throw new Error(`the environment variable ${name} for "${server}" is not set`);
  return value;
}
