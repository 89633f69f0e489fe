// A fresh system database per invocation, so no run sees another engine's or invocation's rows.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The database's url on the same server; DBOS creates and migrates it on launch. */
export function freshDatabase(serverUrl) {
  const name = `bench_dbos_${randomBytes(6).toString('hex')}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    // FORCE: a SIGKILLed worker's sessions may still be closing on the server.
    drop: () => onServer(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
  };
}

export async function onServer(url, use) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
