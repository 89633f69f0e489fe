import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { findOrInstallTemporalCli, startTestServer } from '../../src/dev-server';

export interface BenchServer {
  address: string;
  namespace: string;
  /** `temporal --version`, for the machine record. */
  cliVersion: string;
  stop(): Promise<void>;
}

/**
 * A fresh dev server for this run only: in-memory, on a free port, with Thoughtline's search
 * attributes (the suite's setup). Every figure runs against it, so none inherits another's backlog.
 */
export async function startBenchServer(log: (line: string) => void): Promise<BenchServer> {
  const cli = await findOrInstallTemporalCli({ log });
  const { stdout } = await promisify(execFile)(cli, ['--version']);
  const server = await startTestServer({ log });
  return { address: server.address, namespace: server.namespace, cliVersion: stdout.trim(), stop: () => server.stop() };
}
