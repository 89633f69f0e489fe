import { z } from 'zod';
import { ApprovalPolicy } from '../approval/approval';
import { VisibilityLevel } from '../chain/chain';
import { MAX_MCP_TASK_WAIT_MS } from './mcp-task';

/**
 * MCP servers in the format desktop clients use (`{ "mcpServers": { name: … } }`). A server name
 * becomes the prefix of its tools' names (`<server>__<tool>`), so it takes the tool-name
 * characters and never contains `__` (the separator). Unknown keys are refused, not ignored:
 * a misspelt `headres` would otherwise send requests without their credentials.
 */
export const MCP_SERVER_NAME = /^[a-zA-Z0-9-]+(?:_[a-zA-Z0-9-]+)*$/;
/** Between a server's name and its tool's name in the tool the model sees. */
export const MCP_SEPARATOR = '__';
export const MAX_MCP_SERVERS = 32;

/**
 * What Thoughtline decides about one MCP tool, over what the server's annotations say: the same
 * options `defineTool` takes. The worker's policy wins over the server's hints, and a run's own
 * `approvals` win over both.
 */
export const McpToolPolicy = z.strictObject({
  readOnly: z.boolean().optional(),
  approval: ApprovalPolicy.optional(),
  approverRoles: z.array(z.string().max(200)).max(50).optional(),
  requiredRoles: z.array(z.string().max(200)).max(50).optional(),
  visibility: VisibilityLevel.optional(),
  maxResultChars: z.number().int().positive().max(10_000_000).optional(),
  summaryTemplate: z.string().max(500).optional(),
});
export type McpToolPolicy = z.infer<typeof McpToolPolicy>;

/** Thoughtline's own settings for a server, under the key `thoughtline` (desktop clients ignore it). */
export const McpServerPolicy = z.strictObject({
  /** The tool type its calls show as; default `external`. */
  type: z.enum(['external', 'file_system', 'database']).optional(),
  /** Only these of the server's tools are offered; default all. */
  allowTools: z.array(z.string().max(128)).max(1_000).optional(),
  /** Per tool, by the server's own tool name; `*` applies to every tool of the server. */
  tools: z.record(z.string().max(128), McpToolPolicy).optional(),
});
export type McpServerPolicy = z.infer<typeof McpServerPolicy>;

/** Thoughtline's own settings, allowed on either kind of server. */
const Limits = {
  /** One call's limit (start to close) in ms; default 60 s. */
  timeoutMs: z.number().int().positive().max(3_600_000).optional(),
  /** Attempts of one call; default 3 (a dead server is retried on a new connection). */
  maxAttempts: z.number().int().min(1).max(10).optional(),
  /** Longest a run waits on a task the server answers a call with (ms); default 24 h. */
  taskTimeoutMs: z.number().int().positive().max(MAX_MCP_TASK_WAIT_MS).optional(),
  thoughtline: McpServerPolicy.optional(),
};

export const McpStdioServer = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1).max(4_096),
  args: z.array(z.string().max(4_096)).max(256).default([]),
  /** Secret values: redacted from every result, error and log the worker writes. */
  env: z.record(z.string().min(1).max(256), z.string().max(16_384)).default({}),
  cwd: z.string().min(1).max(4_096).optional(),
  ...Limits,
});
export type McpStdioServer = z.infer<typeof McpStdioServer>;

/** The name of an environment variable of the worker: the config names where a secret is, never the secret. */
const EnvName = z
  .string()
  .max(128)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'an environment variable name (letters, digits, _)' });

/**
 * How the worker authenticates to a remote server: a bearer token read from the environment, or
 * an OAuth 2.1 client-credentials grant whose id and secret are read from the environment. The
 * values are read when the worker starts and redacted like `headers`; a run never sees them.
 */
export const McpHttpAuth = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('bearer'), tokenEnv: EnvName }),
  z.strictObject({
    type: z.literal('client_credentials'),
    tokenUrl: z.url({ protocol: /^https?$/ }).max(4_096),
    clientIdEnv: EnvName,
    clientSecretEnv: EnvName,
    scope: z.string().max(1_000).optional(),
  }),
]);
export type McpHttpAuth = z.infer<typeof McpHttpAuth>;

export const McpHttpServer = z.strictObject({
  type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
  url: z.url({ protocol: /^https?$/ }).max(4_096),
  /** Secret values, like `env`. */
  headers: z.record(z.string().min(1).max(256), z.string().max(16_384)).default({}),
  auth: McpHttpAuth.optional(),
  ...Limits,
});
export type McpHttpServer = z.infer<typeof McpHttpServer>;

export const McpServerConfig = z.union([McpStdioServer, McpHttpServer], {
  error: () =>
    'an MCP server is either { "command", "args"?, "env"?, "cwd"? } (stdio) or { "url", "headers"?, "auth"? } (Streamable HTTP), plus optional "timeoutMs", "maxAttempts", "taskTimeoutMs" and "thoughtline"; no other keys',
});
export type McpServerConfig = z.infer<typeof McpServerConfig>;

export const McpConfig = z.strictObject({
  mcpServers: z
    .record(
      z.string().max(40).regex(MCP_SERVER_NAME, {
        message:
          'an MCP server name takes letters, digits, - and single _ (at most 40; no "__", which separates server and tool in tool names)',
      }),
      McpServerConfig,
    )
    .refine((servers) => Object.keys(servers).length <= MAX_MCP_SERVERS, {
      message: `at most ${MAX_MCP_SERVERS} MCP servers`,
    }),
});
export type McpConfig = z.infer<typeof McpConfig>;
export type McpConfigInit = z.input<typeof McpConfig>;

/** Values a worker must redact: every `env` and `headers` value of every server. */
export function mcpSecrets(config: McpConfig): string[] {
  const values = Object.values(config.mcpServers).flatMap((s) => Object.values('command' in s ? s.env : s.headers));
  // Short values ("1", "true") would redact every occurrence of common text; they are not secrets.
  return [...new Set(values.filter((v) => v.length >= 6))];
}

/** `server__tool` → its two parts; undefined when the name has no separator. */
export function splitMcpName(name: string): { server: string; tool: string } | undefined {
  const at = name.indexOf(MCP_SEPARATOR);
  if (at <= 0) return undefined;
  return { server: name.slice(0, at), tool: name.slice(at + MCP_SEPARATOR.length) };
}
