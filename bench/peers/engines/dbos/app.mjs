// Configures and launches this process as the DBOS app (DBOS.setConfig, then DBOS.launch).
import { performance } from 'node:perf_hooks';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { log } from '../lib/engine-io.mjs';

export const APP_NAME = 'bench-dbos';

/** executorID: a restarted process with the same id recovers that executor's pending workflows. */
export async function launchApp({ systemDatabaseUrl, executorID }) {
  DBOS.setConfig({ name: APP_NAME, systemDatabaseUrl, executorID });
  await DBOS.launch();
  log(
    `dbos: launched, executor ${executorID ?? 'local'}, pid ${process.pid}, ${performance.now().toFixed(0)} ms after process start`,
  );
}

export const shutdownApp = () => DBOS.shutdown();
