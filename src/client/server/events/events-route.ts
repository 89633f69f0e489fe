import type { FastifyInstance } from 'fastify';
import { ApiError } from '../api-error';
import type { ServerContext } from '../server-context';

/** `GET /v1/runs/:id/events`: placeholder until the event stream lands; answers 503. */
export function registerEventsRoute(app: FastifyInstance, _ctx: ServerContext): void {
  app.get('/v1/runs/:id/events', async () => {
    throw new ApiError('unavailable', 'The event stream is not built yet.');
  });
}
