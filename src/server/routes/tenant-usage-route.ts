import { z } from 'zod';
import { TenantUsage } from '../../domain/store';
import type { ViewerRole } from '../../domain';
import { MAX_RANGE_TEXT, UsageRangeError, usageRange } from '../../store/usage/usage-range';
import { ApiError } from '../api-error';
import { defineRoute } from '../api-route';
import type { Identity } from '../auth/identity';

/** Roles that make an identity with no tenant a cross-tenant administrator. */
const ADMIN_ROLES: readonly string[] = ['auditor', 'operator'];

/** Fastify answers 414 for a longer path parameter (its maxParamLength, 100) before any route runs. */
export const MAX_TENANT_PARAM = 100;
export const TenantParams = z.object({ tenant: z.string().min(1).max(MAX_TENANT_PARAM) });
export const TenantUsageQuery = z
  .object({ since: z.string().max(MAX_RANGE_TEXT).optional(), until: z.string().max(MAX_RANGE_TEXT).optional() })
  .strict();

/**
 * Who may read a tenant's usage (it shows cost): an identity of that tenant with the developer
 * view or wider, or an identity with no tenant holding `auditor` or `operator` (an administrator
 * of every tenant). Both facts come from authentication, never from the request.
 */
export function mayReadTenantUsage(identity: Identity, view: ViewerRole, tenant: string): boolean {
  if (identity.tenant === undefined) return identity.roles.some((role) => ADMIN_ROLES.includes(role));
  return identity.tenant === tenant && view !== 'end_user';
}

export const getTenantUsage = defineRoute({
  method: 'GET',
  url: '/v1/tenants/:tenant/usage',
  operationId: 'getTenantUsage',
  summary:
    "One tenant's runs, model and tool calls, tokens and cost, in total, by agent and by model, of runs started in [since, until) (since: ISO or 7d/12h, default 30 days; at most 366); the tenant's developers and auditors, or an operator or auditor with no tenant; needs the chain store",
  params: TenantParams,
  query: TenantUsageQuery,
  response: { status: 200, description: "The tenant's usage", schema: TenantUsage },
  errors: [400, 401, 403, 503],
  async handle({ ctx, identity, params, query }) {
    if (!mayReadTenantUsage(identity, ctx.viewFor(identity, undefined), params.tenant))
      throw new ApiError(
        'forbidden',
        `The usage of tenant "${params.tenant}" needs an identity of that tenant with the developer view or wider, or an operator or auditor with no tenant.`,
      );
    const store = ctx.store;
    if (!store)
      throw new ApiError(
        'unavailable',
        'Tenant usage needs the chain store: run serve with THOUGHTLINE_STORE set (unset means the SQLite file .thoughtline/store.sqlite; "off" disables it).',
      );
    let range: { from: string; to: string };
    try {
      range = usageRange(query, new Date());
    } catch (err) {
      if (!(err instanceof UsageRangeError)) throw err;
      throw new ApiError('bad_request', err.message, [{ path: [err.field], message: err.message }]);
    }
    try {
      return await store.tenantUsage(params.tenant, range.from, range.to);
    } catch {
      // Like the other store reads: a failing store is a 503, and the database's words never reach the caller.
      throw new ApiError('unavailable', `The chain store (${store.kind}) could not be read now; retry shortly.`);
    }
  },
});
