import type { TenantUsage } from '../../shared/store';
import type { SqlExecutor } from '../sql-driver';
import type { StoreTables } from '../store-schema';

/** One tenant's runs started in [from, to): totals, by agent and by model (from the stored steps). */
export async function tenantUsage(
  db: SqlExecutor,
  tables: StoreTables,
  tenant: string,
  from: string,
  to: string,
): Promise<TenantUsage> {
  void db;
  void tables;
  throw new Error(`tenantUsage(${tenant}, ${from}, ${to}): not built yet (issue 51 contract).`);
}
