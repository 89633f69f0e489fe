import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { findOrInstallTemporalCli, startTestServer } from '../../src/dev-server';

export interface BenchServer {
  address: string;
  namespace: string;
  /** `temporal --version`, or the given server's own version, for the machine record. */
  cliVersion: string;
  /** What the figures ran against, in a few words. */
  description: string;
  stop(): Promise<void>;
}

/**
 * A fresh dev server for this run only: in-memory, on a free port, with Thoughtline's search
 * attributes (the suite's setup). Every figure runs against it, so none inherits another's backlog.
 * With `given` (BENCH_TEMPORAL_ADDRESS), that server instead, left running at the end.
 */
export async function startBenchServer(
  log: (line: string) => void,
  given?: { address: string; namespace: string },
): Promise<BenchServer> {
  if (given) {
    const connection = await Connection.connect({ address: given.address });
    try {
      const { serverVersion } = await connection.workflowService.getSystemInfo({});
      const description = `the Temporal server ${serverVersion} at ${given.address}, namespace ${given.namespace}`;
      log(`figures against ${description}`);
      return { ...given, cliVersion: `server ${serverVersion}`, description, stop: async () => {} };
    } finally {
      await connection.close();
    }
  }
  const cli = await findOrInstallTemporalCli({ log });
  const { stdout } = await promisify(execFile)(cli, ['--version']);
  const server = await startTestServer({ log });
  const cliVersion = stdout.trim();
  return {
    address: server.address,
    namespace: server.namespace,
    cliVersion,
    description: `a fresh dev server (${cliVersion.split('\n')[0]})`,
    stop: () => server.stop(),
  };
}
