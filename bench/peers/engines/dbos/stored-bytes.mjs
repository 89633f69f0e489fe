// What DBOS keeps for one workflow: every system-database row that names it. The tables and
// their key columns are DBOS 5.3's schema (dbos.*); the rest (queues, schedules, versions,
// migrations) holds no per-workflow state.
import { onServer } from './database.mjs';

const PER_WORKFLOW = [
  ['workflow_status', 'workflow_uuid'],
  ['workflow_input', 'workflow_uuid'],
  ['workflow_output', 'workflow_uuid'],
  ['operation_outputs', 'workflow_uuid'],
  ['workflow_events', 'workflow_uuid'],
  ['workflow_events_history', 'workflow_uuid'],
  ['streams', 'workflow_uuid'],
  ['notifications', 'destination_uuid'],
];

/**
 * Logical bytes: octet_length of each row's text form (every column, before PostgreSQL's TOAST
 * compression), summed; the tuple size goes in the note only, since TOAST compresses large
 * repetitive observations far below what was written.
 */
export async function storedBytes(databaseUrl, workflowId) {
  const rows = await onServer(databaseUrl, async (client) => {
    const out = [];
    for (const [table, key] of PER_WORKFLOW) {
      const { rows } = await client.query(
        `SELECT count(*)::int AS n, coalesce(sum(octet_length(t::text)), 0)::bigint AS logical,
                coalesce(sum(pg_column_size(t.*)), 0)::bigint AS disk
           FROM dbos.${table} t WHERE t.${key} = $1`,
        [workflowId],
      );
      out.push({ table, n: rows[0].n, logical: Number(rows[0].logical), disk: Number(rows[0].disk) });
    }
    return out;
  });
  const bytes = rows.reduce((sum, r) => sum + r.logical, 0);
  const disk = rows.reduce((sum, r) => sum + r.disk, 0);
  const parts = rows.filter((r) => r.n > 0).map((r) => `${r.table} ${r.n} rows ${r.logical} B`);
  const stored =
    `sum of octet_length(row::text) of the workflow's rows in DBOS's system database: ${parts.join(', ')}` +
    ` (pg_column_size of the same rows, after any TOAST compression: ${disk} B; indexes not counted)`;
  return { bytes, stored };
}
