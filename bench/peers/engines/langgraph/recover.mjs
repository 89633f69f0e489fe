import { randomUUID } from 'node:crypto';
import { now } from '../lib/marks.mjs';
import { startWorker } from './child-process.mjs';
import { checkRun } from './run-thread.mjs';
import { waitForMark } from './wait-for-mark.mjs';

/**
 * A child process runs the thread; when tool step killAt starts (it sleeps slowToolMs), the
 * child is SIGKILLed and a replacement process at once invokes the same thread_id with null
 * input, which LangGraph continues from the last checkpoint (tools pending after model killAt-1).
 */
export async function recoverScenario(request, database) {
  if (!request.marksDir) throw new Error('recover needs marksDir');
  const threadId = `lg-recover-${randomUUID()}`;
  const job = { databaseUrl: database.url, request, threadId };

  const first = startWorker({ ...job, mode: 'start' });
  let firstEnded;
  first.result.then(
    () => (firstEnded = new Error(`the first worker finished before tool step ${request.killAt} started`)),
    (err) => (firstEnded = err),
  );
  const killMark = { marksDir: request.marksDir, runId: threadId, kind: 'tool', index: request.killAt, phase: 'start' };
  await waitForMark(killMark, () => firstEnded);
  first.child.kill('SIGKILL');
  const killedAt = now();

  // No waiting for the exit: a SIGKILLed process runs no more code, and the replacement is
  // meant to start at once.
  const replacementStartedAt = now();
  const replacement = startWorker({ ...job, mode: 'resume' });
  const run = await replacement.result;
  checkRun(threadId, run, request.iterations);
  return { id: threadId, answer: run.answer, killedAt, replacementStartedAt };
}
