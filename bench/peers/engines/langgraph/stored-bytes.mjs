import { withClient } from './database.mjs';

// The PostgresSaver's tables that hold a thread's data (checkpoint_migrations holds none).
const TABLES = ['checkpoints', 'checkpoint_blobs', 'checkpoint_writes'];

/**
 * Bytes the checkpointer keeps for one thread: over every row with that thread_id in its
 * tables, the sum of octet_length of every column (read from the schema: bytea as stored,
 * jsonb and text as their text). Logical bytes, before TOAST compression or page overhead.
 */
export async function storedBytes(databaseUrl, threadId) {
  return withClient(databaseUrl, async (client) => {
    const perTable = {};
    for (const table of TABLES) {
      const { rows: columns } = await client.query(
        `SELECT column_name, data_type FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`,
        [table],
      );
      const lengths = columns.map(({ column_name: c, data_type: t }) =>
        t === 'bytea' ? `coalesce(octet_length("${c}"), 0)` : `coalesce(octet_length("${c}"::text), 0)`,
      );
      const { rows } = await client.query(
        `SELECT count(*)::int AS rows, coalesce(sum(${lengths.join(' + ')}), 0)::bigint AS bytes
           FROM public.${table} WHERE thread_id = $1`,
        [threadId],
      );
      perTable[table] = { rows: rows[0].rows, bytes: Number(rows[0].bytes) };
    }
    const bytes = Object.values(perTable).reduce((sum, t) => sum + t.bytes, 0);
    const parts = TABLES.map((t) => `${t} ${perTable[t].rows} rows ${perTable[t].bytes} B`).join(', ');
    return {
      bytes,
      stored: `PostgresSaver rows for the thread (${parts}); sum of octet_length of every column, jsonb as text, bytea raw, before TOAST compression`,
    };
  });
}
