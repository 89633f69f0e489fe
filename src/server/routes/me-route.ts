import { defineRoute, type ApiRoute } from '../api-route';
import { HealthResponse, MeResponse } from '../api-schemas';
import { allowedViews, defaultView } from '../auth/view-policy';

export const me = defineRoute({
  method: 'GET',
  url: '/v1/me',
  operationId: 'me',
  summary: 'Who the token says the caller is, and the views their roles allow',
  response: { status: 200, description: 'The caller', schema: MeResponse },
  errors: [401],
  handle: async ({ ctx, identity }) => {
    const policy = ctx.policy?.policy;
    const widest = defaultView(identity.roles, policy);
    return {
      id: identity.id,
      roles: identity.roles,
      ...(identity.tenant ? { tenant: identity.tenant } : {}),
      views: allowedViews(identity.roles, policy),
      ...(widest ? { defaultView: widest } : {}),
    };
  },
});

export const health = defineRoute({
  method: 'GET',
  url: '/v1/health',
  operationId: 'health',
  summary: 'Liveness; no token needed',
  public: true,
  response: { status: 200, description: 'The server answers', schema: HealthResponse },
  errors: [],
  handle: async () => ({ ok: true as const }),
});

export const ME_ROUTES: readonly ApiRoute[] = [me, health];
