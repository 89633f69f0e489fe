// The DBOS app as its own process, for the recover scenario: launches (which recovers this
// executor's pending workflows), optionally starts one run, then serves until SIGTERM.
// argv[2]: { systemDatabaseUrl, executorID, marksDir, start?: { id, settings } }
import { DBOS } from '@dbos-inc/dbos-sdk';
import { log } from '../lib/engine-io.mjs';
import { agentWorkflow, useMarks } from './agent.mjs';
import { launchApp, shutdownApp } from './app.mjs';

const options = JSON.parse(process.argv[2]);
process.once('SIGTERM', () => {
  shutdownApp().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});

try {
  useMarks(options.marksDir);
  await launchApp(options);
  if (options.start) {
    const { id, settings } = options.start;
    await DBOS.startWorkflow(agentWorkflow, { workflowID: id })(settings);
    log(`dbos worker ${process.pid}: started ${id}`);
  }
} catch (err) {
  log(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
}
