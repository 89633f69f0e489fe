/** Longest tenant id a metric label or span attribute carries whole. */
export const MAX_TENANT_LABEL_CHARS = 128;

/**
 * A tenant id as a label. Tenant ids name customers, a set an operator configures (tenant limits,
 * the policy's `tenants`), so one series per tenant is the intended cardinality; an id past the
 * bound is cut and marked, so a label never grows with input. Sandbox-safe: pure.
 */
export function tenantLabel(tenant: string): string {
  if (tenant.length <= MAX_TENANT_LABEL_CHARS) return tenant;
  return `${tenant.slice(0, MAX_TENANT_LABEL_CHARS - 1)}…`;
}
