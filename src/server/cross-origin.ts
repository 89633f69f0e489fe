import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error';

/** What a page on an allowed origin may send: the token, a JSON body, where an event stream resumes, a start's retry key. */
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, Last-Event-ID, Idempotency-Key';
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE';
/** Headers a page may read: a 429's wait, and a created resource's address. */
const EXPOSED_HEADERS = 'Retry-After, Location';
/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = '600';
export const MAX_ALLOWED_ORIGINS = 64;
const ORIGIN_SHAPE = /^https?:\/\/(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?\/?$/;

/**
 * One `serve --allow-origin` value as the origin a browser sends: scheme, host and port only
 * (`https://app.example.com`, `http://localhost:5173`). No wildcard, no `null`, no path: an origin
 * is allowed only when it is named exactly.
 */
export function parseAllowedOrigin(value: string): string {
  const refuse = (why: string): never => {
    throw new TypeError(
      `"${value}" is not an origin a page can have (${why}); give scheme, host and port, e.g. https://app.example.com or http://localhost:5173.`,
    );
  };
  if (value === '*' || value === 'null') refuse('every origin is not allowed at once: name each');
  // Only what an origin is made of: no wildcard, user, path, query or fragment (an IDN host in punycode).
  if (!ORIGIN_SHAPE.test(value)) refuse('only http(s)://host[:port], with no wildcard, path, query or fragment');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse('not a URL');
  }
  return url.origin;
}

/**
 * Lets pages on `origins` call the API from the browser (CORS): a request whose `Origin` is one of
 * them gets `Access-Control-Allow-Origin` naming it, and its preflight an answer; any other origin
 * gets no CORS header, so its page cannot read the answer, and its preflight is refused (403).
 * Tokens travel in `Authorization`, never cookies, so credentials mode is not allowed. The
 * headers go on the raw response so event streams, which write their own head, carry them too.
 */
export function allowOrigins(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length > MAX_ALLOWED_ORIGINS)
    throw new TypeError(`At most ${MAX_ALLOWED_ORIGINS} allowed origins; ${origins.length} were given.`);
  const allowed = new Set(origins.map(parseAllowedOrigin));
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    // Every answer depends on the origin now, for caches between the page and the server too.
    reply.raw.setHeader('Vary', 'Origin');
    const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
    if (typeof origin !== 'string' || !allowed.has(origin)) {
      if (!preflight) return;
      const refused = new ApiError(
        'forbidden',
        'This origin may not call the API from a browser; the server names the origins it allows (serve --allow-origin).',
      );
      return reply.status(refused.status).type('application/json').send(refused.toJSON());
    }
    reply.raw.setHeader('Access-Control-Allow-Origin', origin);
    reply.raw.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (!preflight) return;
    reply.raw.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
    reply.raw.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    reply.raw.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE);
    return reply.status(204).send();
  });
}
