import { randomUUID } from 'node:crypto';
import { query } from './admin.mjs';
import { withServer } from './infra.mjs';
import { startInProcessAgent } from './in-process-agent.mjs';
import { checkAnswer, runInput } from './run-input.mjs';
import { ENGINE, version } from './version.mjs';

// Restate drops a finished invocation's journal unless journal retention is set; the server's
// default (default-journal-retention) may differ on the runner's server, so the service asks
// for one hour explicitly: enough to read it back here.
const JOURNAL_RETENTION_MS = 60 * 60 * 1000;

/**
 * One run, then what Restate keeps for it: the byte length of every journal entry of the
 * invocation as the server stores it (sys_journal.raw_length), read over SQL introspection.
 */
export function state(request) {
  return withServer(request, async (server) => {
    const agent = await startInProcessAgent(server, { options: { journalRetention: JOURNAL_RETENTION_MS } });
    try {
      const id = `restate-state-${randomUUID()}`;
      const { output, invocationId } = await agent.run(runInput(request, id, { marked: false }));
      checkAnswer(id, output, request.iterations);
      const stored = await journalOf(
        server.admin,
        invocationId ?? (await invocationIdOf(server.admin, agent.serviceName)),
      );
      return {
        engine: ENGINE,
        version: version(),
        id,
        answer: output.answer,
        storedBytes: stored.bytes,
        stored:
          `sum of sys_journal.raw_length (entries as stored) over the invocation's ${stored.entries} ` +
          `journal entries (${stored.byType}); kept after completion by journalRetention=1h on the ` +
          `service; status row, Bifrost log copies and RocksDB overhead not counted`,
        maxInputTokens: output.maxInputTokens,
      };
    } finally {
      await agent.remove();
    }
  });
}

async function journalOf(admin, invocationId) {
  const rows = await query(
    admin,
    `SELECT entry_type, count(*) AS entries, sum(raw_length) AS bytes FROM sys_journal ` +
      `WHERE id = '${invocationId}' GROUP BY entry_type ORDER BY entry_type`,
  );
  if (rows.length === 0) throw new Error(`no journal kept for invocation ${invocationId}`);
  return {
    entries: rows.reduce((s, r) => s + Number(r.entries), 0),
    bytes: rows.reduce((s, r) => s + Number(r.bytes), 0),
    byType: rows.map((r) => `${r.entries} ${r.entry_type}: ${r.bytes} B`).join(', '),
  };
}

/** The ingress names the invocation in x-restate-id; this is the fallback if it did not. */
async function invocationIdOf(admin, serviceName) {
  const rows = await query(admin, `SELECT id FROM sys_invocation WHERE target_service_name = '${serviceName}'`);
  if (rows.length !== 1) throw new Error(`expected one invocation of ${serviceName}, found ${rows.length}`);
  return rows[0].id;
}
