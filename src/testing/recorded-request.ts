import type { IncomingHttpHeaders } from 'node:http';

/** The parsed JSON body of `POST /v1/messages`, loosely typed: tests inspect what was really sent. */
export interface FakeRequestBody {
  model: string;
  max_tokens: number;
  messages: Array<{ role: string; content: unknown }>;
  system?: unknown;
  tools?: Array<{ name: string; [key: string]: unknown }>;
  tool_choice?: unknown;
  stream?: boolean;
  [key: string]: unknown;
}

/** How the caller authenticated; the credential itself is never recorded. */
export type FakeAuth = 'x-api-key' | 'bearer' | 'none';

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-case names; `x-api-key` and `authorization` values are redacted. */
  headers: Record<string, string>;
  auth: FakeAuth;
  /** `undefined` when the body was not valid JSON. */
  body: FakeRequestBody | undefined;
  /** The request asked for SSE (`stream: true`). */
  stream: boolean;
  /** HTTP status the server answered, once it has sent its headers. */
  status?: number;
  /** SSE events written (pings included), for streamed answers. */
  eventsSent?: number;
  /** The injected fault, e.g. `socket reset after 4 events`; absent for a plain reply or HTTP error. */
  fault?: string;
  /** True when the client went away before the answer was complete (e.g. its AbortSignal fired). */
  clientAborted: boolean;
}

const REDACTED = '[redacted]';

export function authOf(headers: IncomingHttpHeaders): FakeAuth {
  if (typeof headers['x-api-key'] === 'string' && headers['x-api-key'] !== '') return 'x-api-key';
  if (/^Bearer \S+/i.test(headers.authorization ?? '')) return 'bearer';
  return 'none';
}

/** Flattens and redacts, so recorded requests are safe to print in test output. */
export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const flat = Array.isArray(value) ? value.join(', ') : value;
    if (name === 'x-api-key') out[name] = REDACTED;
    else if (name === 'authorization') out[name] = flat.replace(/^(\S+\s+).*$/, `$1${REDACTED}`);
    else out[name] = flat;
  }
  return out;
}

/**
 * Parses and checks the fields every Messages request must have. A body that parses is returned
 * even with a problem, so the recorded request shows what the client actually sent.
 */
export function parseRequestBody(raw: string): { body: FakeRequestBody | undefined; problem: string | undefined } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { body: undefined, problem: 'request body is not valid JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { body: undefined, problem: 'request body must be a JSON object' };
  }
  const body = parsed as FakeRequestBody;
  const missing = [
    typeof body.model === 'string' ? undefined : 'model (string)',
    typeof body.max_tokens === 'number' ? undefined : 'max_tokens (number)',
    Array.isArray(body.messages) ? undefined : 'messages (array)',
  ].filter((m): m is string => m !== undefined);
  return { body, problem: missing.length > 0 ? `request body is missing ${missing.join(', ')}` : undefined };
}
