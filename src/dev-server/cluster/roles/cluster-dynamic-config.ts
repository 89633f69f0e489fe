import { DEV_SERVER_DYNAMIC_CONFIG } from '../../dev-server-tuning';
import { VERSIONING_DYNAMIC_CONFIG } from '../../versioning-dynamic-config';

/**
 * The history service's workflow cache: a workflow idle 5 minutes is dropped and read from the
 * database when it wakes. Temporal 1.32 keeps up to 128,000 entries and checks their one-hour TTL
 * only when one is read again, unless this sweep is on, so its memory grows with every run it ever
 * touched: the hour's soak saw +52% (docs/scale.md#your-clusters-history-cache).
 */
export const HISTORY_CACHE_EVICTION: readonly string[] = [
  'history.cacheTTL="5m"',
  'history.cacheBackgroundEvict={"Enabled":true,"LoopInterval":"1m"}',
];

/**
 * The cluster's dynamic config, as `KEY=JSON` like the dev server's flags: the same throttles
 * lifted and worker versioning with the same drainage checks as the dev servers the project
 * starts, plus the ID limit of the SQL schema's 255-character columns (a clear API error instead
 * of a database one). docker/dynamicconfig/development.yaml holds the same values for the compose
 * stack (test/deployment/docker-compose-in-step.test.ts).
 *
 * The history service's workflow cache expires idle entries (HISTORY_CACHE_EVICTION).
 *
 * Left out on purpose: `system.forceSearchAttributesCacheRefreshOnRead`, a development setting.
 * Without it a cluster behaves as in production: search attributes just registered are not
 * usable until the namespace cache refreshes, and whatever registers them (the cluster's start,
 * global-setup, `thoughtline run`, the compose stack's job) must wait for that.
 */
export const CLUSTER_DYNAMIC_CONFIG: readonly string[] = [
  ...DEV_SERVER_DYNAMIC_CONFIG,
  ...VERSIONING_DYNAMIC_CONFIG,
  ...HISTORY_CACHE_EVICTION,
  'limit.maxIDLength=255',
];

/** The dynamic config file's text: each key with one unconstrained value. JSON values are YAML too. Pure. */
export function clusterDynamicConfigYaml(values: readonly string[] = CLUSTER_DYNAMIC_CONFIG): string {
  const lines = ['# Written by `npm run cluster -- start` (src/dev-server/cluster); rewritten at every start.'];
  for (const entry of values) {
    const at = entry.indexOf('=');
    if (at <= 0) throw new Error(`dynamic config value '${entry}' is not KEY=JSON`);
    const value: unknown = JSON.parse(entry.slice(at + 1));
    lines.push(`${entry.slice(0, at)}:`, `  - value: ${JSON.stringify(value)}`, '    constraints: {}');
  }
  return `${lines.join('\n')}\n`;
}
