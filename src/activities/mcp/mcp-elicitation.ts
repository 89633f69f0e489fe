import { createHash } from 'node:crypto';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import {
  MAX_ELICITATION_MESSAGE_CHARS,
  MAX_ELICITATION_SCHEMA_CHARS,
  type ElicitationAnswer,
  type ElicitationContent,
  type ElicitationRequest,
} from '../../domain';

/** The same question gets the same key on every run of the call, so its answer is found again. */
export function elicitationKey(server: string, message: string, requestedSchema: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([server, message, requestedSchema]))
    .digest('hex');
}

/** What the activity does with one `elicitation/create` from the server during a call. */
export type ElicitationStep =
  | { kind: 'answer'; result: ElicitResult }
  /** Nobody has answered this yet (or the answer did not fit): end the call and ask a person. */
  | { kind: 'ask'; request: ElicitationRequest }
  | { kind: 'refuse'; reason: string };

/**
 * Decides one elicitation: a form request whose key has an answer gets it (when the fields fit
 * the requested schema); one without an answer becomes a question for a person. URL-mode
 * requests and oversized schemas are refused: a run cannot send a person to a page for a server.
 */
export function decideElicitation(
  server: string,
  tool: string,
  params: ElicitRequest['params'],
  answers: readonly ElicitationAnswer[],
): ElicitationStep {
  if (!('requestedSchema' in params) || !params.requestedSchema)
    return { kind: 'refuse', reason: 'it asked the user to open a URL, which a run cannot do' };
  const schema = params.requestedSchema as Record<string, unknown>;
  if (JSON.stringify(schema).length > MAX_ELICITATION_SCHEMA_CHARS)
    return { kind: 'refuse', reason: `its requested schema is over ${MAX_ELICITATION_SCHEMA_CHARS} characters` };
  const message = params.message.slice(0, MAX_ELICITATION_MESSAGE_CHARS);
  const key = elicitationKey(server, params.message, schema);
  const request: ElicitationRequest = { key, server, tool, message, requestedSchema: schema };
  const answer = answers.find((a) => a.key === key);
  if (!answer) return { kind: 'ask', request };
  if (answer.action !== 'accept') return { kind: 'answer', result: { action: answer.action } };
  const problem = contentProblem(schema, answer.content ?? {});
  if (problem) return { kind: 'ask', request: { ...request, problem } };
  return { kind: 'answer', result: { action: 'accept', content: answer.content ?? {} } };
}

/** Checks fields against MCP's flat elicitation schema: required fields, types, enums; unknown fields refused. */
export function contentProblem(schema: Record<string, unknown>, content: ElicitationContent): string | undefined {
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required'])
    ? schema['required'].filter((r): r is string => typeof r === 'string')
    : [];
  const missing = required.filter((field) => !Object.hasOwn(content, field));
  if (missing.length) return `missing ${missing.join(', ')}`;
  for (const [field, value] of Object.entries(content)) {
    const prop = Object.hasOwn(properties, field) ? properties[field] : undefined;
    if (!isRecord(prop)) return `"${field}" is not a field of this form`;
    const problem = valueProblem(prop, value);
    if (problem) return `"${field}" ${problem}`;
  }
  return undefined;
}

function valueProblem(prop: Record<string, unknown>, value: ElicitationContent[string]): string | undefined {
  const choices = Array.isArray(prop['enum'])
    ? prop['enum']
    : Array.isArray(prop['oneOf'])
      ? prop['oneOf'].map((o) => (isRecord(o) ? o['const'] : undefined))
      : undefined;
  switch (prop['type']) {
    case 'string':
      if (typeof value !== 'string') return 'must be text';
      if (choices && !choices.includes(value)) return `must be one of ${choices.join(', ')}`;
      return undefined;
    case 'number':
      return typeof value === 'number' ? undefined : 'must be a number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? undefined : 'must be a whole number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'array':
      return Array.isArray(value) ? undefined : 'must be a list';
    default:
      return 'has a type this client cannot fill';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
