import net from 'node:net';
import type pg from 'pg';
import { loadPg } from '../../../packaging/load-pg';

const FEATURE = 'The Postgres query tool';

/** How a backend that ran past its deadline was stopped. */
export interface DeadlineOutcome {
  pid: number;
  /** `cancelled`: the cancel request stopped it; `terminated`: pg_terminate_backend had to. */
  how: 'cancelled' | 'terminated' | 'unconfirmed';
  /** True when pg_stat_activity no longer shows it running the query. */
  stopped: boolean;
}

/** After the cancel request, how long the query may take to stop before the backend is terminated. */
const CANCEL_GRACE_MS = 1_000;
/** How long the backend may take to be gone once terminated, before the call says it could not confirm it. */
const TERMINATE_WAIT_MS = 5_000;
const POLL_MS = 50;

/** What the watchdog needs of a pool client: node-postgres keeps these from the server's BackendKeyData. */
interface Backend {
  processID: number | null;
  secretKey?: number | null;
  host?: string;
  port?: number;
}

/**
 * Ends a query at its deadline on the server side, whatever the session's own settings say (a
 * query can turn `statement_timeout` off with `set_config`): at `ms`, a protocol cancel request for
 * the client's backend (needs no privilege, only its key); if the backend is still active after a
 * grace period, `pg_terminate_backend` from a second connection; then it checks in
 * pg_stat_activity that the backend is no longer running. `stop()` disarms it when the call ends first.
 */
export function watchDeadline(
  client: pg.PoolClient,
  config: pg.ClientConfig,
  ms: number,
): { stop(): void; fired(): Promise<DeadlineOutcome> | undefined } {
  let outcome: Promise<DeadlineOutcome> | undefined;
  const timer = setTimeout(() => {
    outcome = stopBackend(client as unknown as Backend, config);
    outcome.catch(() => undefined);
  }, ms);
  return {
    stop: () => clearTimeout(timer),
    fired: () => outcome,
  };
}

async function stopBackend(backend: Backend, config: pg.ClientConfig): Promise<DeadlineOutcome> {
  const pid = backend.processID ?? 0;
  await sendCancelRequest(backend).catch(() => undefined);
  const watcher = new (loadPg(FEATURE).Client)({
    ...config,
    connectionTimeoutMillis: 5_000,
    query_timeout: 5_000,
    application_name: 'thoughtline-sql-deadline',
  });
  try {
    await watcher.connect();
    if (await stillActive(watcher, pid, CANCEL_GRACE_MS)) {
      await watcher.query('SELECT pg_terminate_backend($1)', [pid]).catch(() => undefined);
      return { pid, how: 'terminated', stopped: !(await stillActive(watcher, pid, TERMINATE_WAIT_MS)) };
    }
    return { pid, how: 'cancelled', stopped: true };
  } catch {
    return { pid, how: 'unconfirmed', stopped: false };
  } finally {
    await watcher.end().catch(() => undefined);
  }
}

/** Whether `pid` still runs a statement after waiting up to `ms` for it to stop. */
async function stillActive(watcher: pg.Client, pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    const { rows } = await watcher.query<{ state: string | null }>(
      'SELECT state FROM pg_stat_activity WHERE pid = $1',
      [pid],
    );
    if (rows.length === 0 || rows[0]!.state !== 'active') return false;
    if (Date.now() >= until) return true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The wire protocol's CancelRequest (length 16, code 80877102, pid, key) on a fresh socket, as psql's Ctrl-C sends it. */
function sendCancelRequest(backend: Backend): Promise<void> {
  const { processID, secretKey, host = 'localhost', port = 5432 } = backend;
  if (!processID || secretKey === undefined || secretKey === null) return Promise.resolve();
  const packet = Buffer.alloc(16);
  packet.writeInt32BE(16, 0);
  packet.writeInt32BE(80877102, 4);
  packet.writeInt32BE(processID, 8);
  packet.writeInt32BE(secretKey, 12);
  return new Promise((resolve, reject) => {
    const socket = host.startsWith('/') ? net.connect(`${host}/.s.PGSQL.${port}`) : net.connect(port, host);
    socket.setTimeout(5_000, () => socket.destroy(new Error('cancel request timed out')));
    socket.once('connect', () => socket.end(packet));
    socket.once('close', () => resolve());
    socket.once('error', reject);
  });
}
