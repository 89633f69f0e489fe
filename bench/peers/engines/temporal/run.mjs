import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { answerFor, TOOL_NAME } from '../lib/loop-script.mjs';
import { now } from '../lib/marks.mjs';

/** What both Temporal engines share around one run: its queue, input, client and answer check. */
export const taskQueueFor = (engine) => `bench-${engine.name}-${randomUUID()}`;

/** The user's task; both engines' workflows take { task, iterations }. */
export const workflowInput = (iterations) => ({
  task: `Call ${TOOL_NAME} ${iterations} times, then say how many times you called it.`,
  iterations,
});

/** `plugins`: the engine's client plugins, for an integration whose docs install it on the client too. */
export async function connectClient(temporal, plugins = []) {
  const connection = await Connection.connect({ address: temporal.address });
  return new Client({ connection, namespace: temporal.namespace, plugins });
}

export function checkAnswer(id, answer, iterations) {
  if (answer !== answerFor(iterations)) {
    throw new Error(`run ${id} answered ${JSON.stringify(answer)}, expected ${JSON.stringify(answerFor(iterations))}`);
  }
}

/** Starts a run (requestedAt just before the start call) and waits for its answer here. */
export async function startRun({ engine, client, taskQueue }, id, iterations) {
  const requestedAt = now();
  const handle = await client.workflow.start(engine.workflowType, {
    taskQueue,
    workflowId: id,
    args: [workflowInput(iterations)],
  });
  return { handle, requestedAt };
}

/**
 * One run from the start call to the answer in this process. `strict` throws on a wrong answer
 * (concurrent counts them instead: its reply has wrongAnswers).
 */
export async function runOnce(session, id, iterations, strict = true) {
  const { handle, requestedAt } = await startRun(session, id, iterations);
  const { answer, maxInputTokens } = await handle.result();
  const returnedAt = now();
  if (strict) checkAnswer(id, answer, iterations);
  return { id, requestedAt, returnedAt, answer, maxInputTokens, firstRunId: handle.firstExecutionRunId };
}
