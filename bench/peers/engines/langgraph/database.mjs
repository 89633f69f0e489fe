import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh database per invocation (bench_lg_<random>) under infra.postgresUrl, so runs never
 * see another engine's or invocation's checkpoints. Returns its URL and a drop function.
 */
export async function createDatabase(postgresUrl) {
  const name = `bench_lg_${randomBytes(6).toString('hex')}`;
  await withClient(postgresUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    // FORCE: a SIGKILLed child's connection may still be open on the server.
    drop: () => withClient(postgresUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

export async function withClient(connectionString, use) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
