// The process that runs the graph in the recover scenario: `start` opens a new thread, `resume`
// continues it from its last checkpoint as a restarted app would. One JSON line on stdout.
import { openAgent } from './open-agent.mjs';
import { resumeRun, startRun } from './run-thread.mjs';

const { databaseUrl, request, threadId, mode } = JSON.parse(process.argv[2]);
const { graph, close } = await openAgent(databaseUrl, request);
try {
  const run = mode === 'resume' ? await resumeRun(graph, threadId, request) : await startRun(graph, threadId, request);
  process.stdout.write(`${JSON.stringify(run)}\n`);
} finally {
  await close();
}
