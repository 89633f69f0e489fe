// Every call to the HTTP API: the bearer token on each request, JSON in and out, and errors as
// ApiFailure with the server's code and message (shown to the person as they are).
import { clearToken, getToken } from './token.js';

export class ApiFailure extends Error {
  constructor(status, code, message, issues) {
    super(message);
    this.name = 'ApiFailure';
    this.status = status;
    this.code = code;
    this.issues = issues;
  }
}

const listeners = new Set();

/** Called with the failure whenever the API answers 401: the token is missing, invalid or expired. */
export function onUnauthenticated(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function notifyUnauthenticated(failure) {
  clearToken();
  for (const listener of listeners) listener(failure);
}

/** The headers every request carries. */
export function authHeaders(extra = {}) {
  const token = getToken();
  return { ...extra, ...(token ? { authorization: `Bearer ${token}` } : {}) };
}

/** The error a non-2xx response carries, read from its `{ error: { code, message } }` body. */
export async function failureOf(response) {
  let body;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const error = body && typeof body === 'object' ? body.error : undefined;
  const code = typeof error?.code === 'string' ? error.code : `http_${response.status}`;
  const message =
    typeof error?.message === 'string'
      ? error.message
      : `The server answered ${response.status} ${response.statusText}.`;
  const issues = Array.isArray(error?.issues) ? error.issues : undefined;
  return new ApiFailure(response.status, code, message, issues);
}

/** One API call; resolves to the parsed JSON body (undefined for an empty one). */
export async function api(path, { method = 'GET', body, query, signal } = {}) {
  const url = new URL(path, location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value));
  }
  let response;
  try {
    response = await fetch(url, {
      method,
      signal,
      headers: authHeaders(
        body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      ),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (err) {
    if (err?.name === 'AbortError') throw err;
    throw new ApiFailure(0, 'network', 'The server cannot be reached. Check that `thoughtline serve` is running.');
  }
  if (!response.ok) {
    const failure = await failureOf(response);
    if (response.status === 401) notifyUnauthenticated(failure);
    throw failure;
  }
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

/** A failure's text for a person: the server's message, with the fields zod pointed at. */
export function describeFailure(err) {
  if (!(err instanceof ApiFailure)) return err instanceof Error ? err.message : String(err);
  // Only what the message does not already say: the API's messages often name the field.
  const issues = (err.issues ?? [])
    .filter((i) => !err.message.includes(String(i.message)))
    .map((i) => `${(i.path ?? []).join('.') || '(body)'}: ${i.message}`);
  return issues.length ? `${err.message} (${issues.join('; ')})` : err.message;
}
