import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolSpec } from '../../domain';
import { MAX_RETURNS_CHARS } from '../../domain/tools/tool-spec';
import { MCP_SEPARATOR, type McpServerConfig, type McpToolPolicy } from '../../domain/tools/mcp-config';

/** Names the model APIs accept for a tool. */
const MODEL_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Largest input schema (as JSON) a run records for one tool. */
export const MAX_MCP_SCHEMA_CHARS = 32_000;
/** Longest description a run records for one tool. */
export const MAX_MCP_DESCRIPTION_CHARS = 4_000;
const DEFAULT_TIMEOUT_MS = 60_000;
/** Deepest nesting of an input schema's JSON: the run builds and walks it recursively, in the workflow too. */
export const MAX_MCP_SCHEMA_DEPTH = 64;
/**
 * Control characters but tab and newline (terminal escapes start with ESC), and the bidirectional
 * overrides and isolates that make text read otherwise than it is stored.
 */
const UNSAFE_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** A server's text as the model, the chain and a terminal may see it: plain, and bounded. */
export function plainText(text: string, maxChars: number): string {
  return text
    .slice(0, maxChars * 2)
    .replace(UNSAFE_TEXT, '')
    .slice(0, maxChars);
}

/** The name the model sees: `<server>__<tool>`. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}${MCP_SEPARATOR}${tool}`;
}

/** Whether a server's tool can be offered at all: its full name must be a name the model APIs accept. */
export function isOfferable(server: string, tool: Tool): boolean {
  return MODEL_TOOL_NAME.test(mcpToolName(server, tool.name));
}

/**
 * The spec a run records for one MCP tool. Defaults come from the server's annotations as MCP
 * defines them: `readOnlyHint` makes it read-only (cached, no approval); otherwise the tool is
 * taken as destructive unless it says `destructiveHint: false`, so it needs approval. The worker's
 * policy (`thoughtline.tools` in the config, `*` first, then the tool's own entry) wins over the
 * hints: a server that lies about its tools does not decide. Throws on a schema no run could use.
 */
export function mcpToolSpec(server: string, settings: McpServerConfig, tool: Tool): ToolSpec {
  const name = mcpToolName(server, tool.name);
  const policy: McpToolPolicy = {
    ...settings.thoughtline?.tools?.['*'],
    ...(Object.hasOwn(settings.thoughtline?.tools ?? {}, tool.name) ? settings.thoughtline!.tools![tool.name] : {}),
  };
  const hints = tool.annotations ?? {};
  const readOnly = policy.readOnly ?? hints.readOnlyHint === true;
  const destructive = !readOnly && hints.destructiveHint !== false;
  const approval = policy.approval ?? (destructive ? 'always' : 'never');
  const description =
    plainText([tool.title, tool.description].filter(Boolean).join(': '), MAX_MCP_DESCRIPTION_CHARS) ||
    `Tool ${tool.name} of the MCP server ${server}.`;
  return {
    name,
    type: settings.thoughtline?.type ?? 'external',
    description,
    inputSchema: checkedSchema(name, tool.inputSchema),
    timeoutMs: settings.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retry: { maximumAttempts: settings.maxAttempts ?? 3, initialIntervalMs: 1_000, backoffCoefficient: 2 },
    visibility: policy.visibility ?? 'full',
    readOnly,
    effects: readOnly ? 'none' : 'idempotent',
    ...returnsOf(tool),
    ...(policy.maxResultChars ? { maxResultChars: policy.maxResultChars } : {}),
    ...(approval !== 'never' ? { approval } : {}),
    ...(policy.approverRoles?.length ? { approverRoles: policy.approverRoles } : {}),
    ...(policy.requiredRoles?.length ? { requiredRoles: policy.requiredRoles } : {}),
    ...(policy.summaryTemplate ? { summaryTemplate: policy.summaryTemplate } : {}),
  };
}

/**
 * What the prompts say the tool returns: its `outputSchema` as compact JSON, or a note when that is
 * longer than a spec may carry. Nothing when the server declares none.
 */
function returnsOf(tool: Tool): { returns?: string } {
  if (!tool.outputSchema) return {};
  let json: string;
  try {
    const { $schema: _dialect, ...schema } = tool.outputSchema as Record<string, unknown>;
    json = plainText(JSON.stringify(schema), MAX_RETURNS_CHARS + 1);
  } catch {
    return {};
  }
  if (json.length <= MAX_RETURNS_CHARS) return { returns: json };
  return { returns: 'structured content (JSON) as the server declares it; its schema is too long to show' };
}

/** A schema the run's validator can read (the workflow builds a zod schema from it) and small enough to record. */
function checkedSchema(name: string, schema: Tool['inputSchema']): Record<string, unknown> {
  const json = JSON.stringify(schema);
  if (json.length > MAX_MCP_SCHEMA_CHARS)
    throw new McpSchemaError(name, `its input schema is ${json.length} characters; at most ${MAX_MCP_SCHEMA_CHARS}`);
  if (nestedDeeperThan(json, MAX_MCP_SCHEMA_DEPTH))
    throw new McpSchemaError(name, `its input schema is nested deeper than ${MAX_MCP_SCHEMA_DEPTH} levels`);
  try {
    z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (err) {
    throw new McpSchemaError(name, `its input schema cannot be read: ${(err as Error).message}`);
  }
  return schema as Record<string, unknown>;
}

/** Whether JSON text nests objects and arrays deeper than `max`: one pass over the text, skipping strings. */
function nestedDeeperThan(json: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (++depth > max) return true;
    } else if (c === '}' || c === ']') depth--;
  }
  return false;
}

/** A tool whose schema no run can use: not retried, since listing again gives the same schema. */
export class McpSchemaError extends Error {
  override readonly name = 'McpSchemaError';
  constructor(
    readonly toolName: string,
    reason: string,
  ) {
    super(`MCP tool "${toolName}" cannot be offered: ${reason}.`);
  }
}
