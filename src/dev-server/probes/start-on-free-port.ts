import fs from 'node:fs';
import { freePort } from './free-port';

/**
 * Starts a server on a free port and returns the port. Another process may take a free port
 * before the server binds it (two test files, or the soak beside the slow stage, pick ports at
 * once): when the server's log says so, it tries another port, up to `attempts` times. Any other
 * failure is thrown as it came.
 */
export async function startOnFreePort(
  start: (port: number) => Promise<unknown> | unknown,
  logFile: string,
  attempts = 3,
): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const logBefore = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
    try {
      await start(port);
      return port;
    } catch (error) {
      const said = fs.existsSync(logFile) ? fs.readFileSync(logFile).subarray(logBefore).toString('utf8') : '';
      if (attempt >= attempts || !said.includes('Address already in use')) throw error;
    }
  }
}
