import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { WorkflowNotFoundError } from '@temporalio/client';
import { ApiError } from './api-error';

/** A zod failure as the API reports it: every issue with its path. */
export function badRequest(error: ZodError, where: string): ApiError {
  const issues = error.issues.map((issue) => ({
    path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    message: issue.message,
  }));
  const first = issues[0];
  const at = first && first.path.length > 0 ? ` at ${where}.${first.path.join('.')}` : ` in the ${where}`;
  return new ApiError(
    'bad_request',
    `Invalid request${at}: ${first?.message ?? 'unreadable'}. Fix the fields listed in issues.`,
    issues,
  );
}

/** Any error a route or Fastify raises, as the `{ error }` JSON the API promises. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof ZodError) return badRequest(error, 'body');
  if (error instanceof WorkflowNotFoundError) return new ApiError('not_found', 'No such run.');
  const fastify = error as Partial<FastifyError>;
  if (fastify.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new ApiError(
      'payload_too_large',
      "The request body is over the server's limit; send a smaller body (a long task can be put in a file the agent reads).",
    );
  if (fastify.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new ApiError('bad_request', 'Send the body as JSON with "Content-Type: application/json".');
  if (typeof fastify.code === 'string' && fastify.code.startsWith('FST_ERR_CTP_'))
    return new ApiError('bad_request', 'The body is not valid JSON; send a JSON object.');
  if (error instanceof SyntaxError || fastify.statusCode === 400)
    return new ApiError('bad_request', 'The request could not be read; send a JSON object.');
  if (fastify.statusCode === 404) return new ApiError('not_found', 'No such route.');
  return new ApiError('internal', 'Internal error; the server log has the details.');
}

/**
 * Every failure answers `{ error: { code, message, issues? } }`. A 401 carries
 * `WWW-Authenticate: Bearer`; a 500 never carries the error's text or stack (it goes to the log).
 */
export function installErrorHandler(app: FastifyInstance, log: (line: string) => void): void {
  app.setErrorHandler(async (error, request, reply) => {
    const api = toApiError(error);
    if (api.code === 'internal')
      log(
        `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    if (api.code === 'unauthenticated')
      void reply.header(
        'WWW-Authenticate',
        `Bearer realm="thoughtline"${request.headers.authorization ? ', error="invalid_token"' : ''}`,
      );
    return reply.status(api.status).type('application/json').send(api.toJSON());
  });
  app.setNotFoundHandler(async (_request, reply) => {
    const api = new ApiError('not_found', 'No such route; GET /v1/openapi.json lists them.');
    return reply.status(404).send(api.toJSON());
  });
}
