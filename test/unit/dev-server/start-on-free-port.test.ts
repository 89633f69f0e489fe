import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { startOnFreePort } from '../../../src/dev-server/probes/start-on-free-port';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'free-port-'));
const log = path.join(dir, 'server.log');
afterEach(() => fs.rmSync(log, { force: true }));

/** A start that binds the port for real, and writes what PostgreSQL writes when it cannot. */
const bindOrLog = (servers: net.Server[]) => (port: number) =>
  new Promise<void>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', () => {
      fs.appendFileSync(log, `LOG: could not bind IPv4 address "127.0.0.1": Address already in use\n`);
      reject(new Error('pg_ctl: could not start server'));
    });
    server.listen(port, '127.0.0.1', () => {
      servers.push(server);
      resolve();
    });
  });

test('a port another process took first is given up for another, and the port started on is returned', async () => {
  const servers: net.Server[] = [];
  let calls = 0;
  const start = bindOrLog(servers);
  const port = await startOnFreePort(async (free) => {
    calls++;
    // The first port is taken between the probe and the bind, as by another file's server.
    if (calls === 1) await start(free);
    return start(free);
  }, log);
  expect(calls).toBe(2);
  expect(servers.map((s) => (s.address() as net.AddressInfo).port)).toEqual([expect.any(Number), port]);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

test('any other failure is thrown at once, not retried', async () => {
  let calls = 0;
  const failure = startOnFreePort(() => {
    calls++;
    fs.appendFileSync(log, 'FATAL: could not create shared memory segment\n');
    throw new Error('pg_ctl: could not start server');
  }, log);
  await expect(failure).rejects.toThrow('could not start server');
  expect(calls).toBe(1);
});

test('a port taken on every attempt fails after the last one, with the last error', async () => {
  let calls = 0;
  const failure = startOnFreePort(
    () => {
      calls++;
      fs.appendFileSync(log, 'LOG: Address already in use\n');
      throw new Error(`attempt ${calls}`);
    },
    log,
    3,
  );
  await expect(failure).rejects.toThrow('attempt 3');
  expect(calls).toBe(3);
});

test('an "in use" line from an earlier start does not make a later, different failure retry', async () => {
  fs.writeFileSync(log, 'LOG: Address already in use\n');
  let calls = 0;
  const failure = startOnFreePort(() => {
    calls++;
    throw new Error('initdb missing');
  }, log);
  await expect(failure).rejects.toThrow('initdb missing');
  expect(calls).toBe(1);
});
