import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../api-route';

/**
 * The AG-UI endpoints (docs/ag-ui.md): a run's events as AG-UI events, and the stateless
 * front end's endpoint that maps a thread to one durable conversation.
 * Contract stub for issue 52; the AG-UI work fills it.
 */
export function registerAgUiRoutes(_app: FastifyInstance, _ctx: ApiContext): void {}
