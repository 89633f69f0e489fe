import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../api-route';

/**
 * The A2A endpoints (docs/a2a.md): an agent card per catalogue agent and its JSON-RPC endpoint.
 * Contract stub for issue 52; the A2A server fills it.
 */
export function registerA2aRoutes(_app: FastifyInstance, _ctx: ApiContext): void {}
