// The workflow app as its own process (the recover scenario's worker): starts the app from the
// bundles named in its environment, tells the parent its port over IPC, and serves until killed.
// A restarted one finds the killed one's runs in the data directory and resumes them.
import { log } from '../lib/engine-io.mjs';
import { startApp } from './app.mjs';

const app = await startApp({ routes: process.env.BENCH_APP_ROUTES, workflowId: process.env.BENCH_APP_WORKFLOW_ID });
log(`vercel-workflow app: pid ${process.pid} on port ${app.port}`);
process.send?.({ ready: app.port, pid: process.pid });
process.on('SIGTERM', async () => {
  await app.close();
  process.exit(0);
});
