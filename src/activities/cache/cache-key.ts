import { createHash } from 'node:crypto';

/** What kind of result an entry holds; part of its key, so a tool and a model of one name never meet. */
export type CacheKind = 'tool' | 'model' | 'plan';

/**
 * The key of a cached result: sha256 of the canonical JSON of its tenant, kind, name and request.
 * The tenant is in the key, so runs of different tenants never read each other's entries; a run
 * without a tenant (`tenant` undefined) has entries of its own, apart from every tenant's.
 */
export function cacheKey(tenant: string | undefined, kind: CacheKind, name: string, request: unknown): string {
  return createHash('sha256')
    .update(canonicalJson([tenantKeyPart(tenant), kind, name, request]))
    .digest('hex');
}

/** How keys spelt "no tenant" before tenants could be told from it; kept, so those entries are still found. */
const NO_TENANT_PART = 'default';

/**
 * The tenant's part of a key. No tenant keeps the string it always had, and every tenant its own
 * name, except a tenant named `default`, which shared that string with "no tenant": it is spelt as
 * an object, which no string equals. Its entries from before are left to expire (they were shared).
 */
function tenantKeyPart(tenant: string | undefined): string | { tenant: string } {
  if (tenant === undefined) return NO_TENANT_PART;
  return tenant === NO_TENANT_PART ? { tenant } : tenant;
}

/**
 * JSON with object keys sorted at every depth, so two requests that differ only in key order have
 * one key. `undefined` members are dropped as JSON.stringify drops them; a value JSON cannot hold
 * (a function, a symbol, a cycle) throws, and the caller does not cache.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value, new Set()));
}

function sorted(value: unknown, seen: Set<object>): unknown {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint')
      throw new TypeError(`a ${typeof value} has no JSON form`);
    return value;
  }
  // A Date (or anything with toJSON) is keyed by the JSON it becomes.
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return sorted(toJSON.call(value), seen);
  if (seen.has(value)) throw new TypeError('a value that contains itself has no JSON form');
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sorted(v, seen)));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sorted(v, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
