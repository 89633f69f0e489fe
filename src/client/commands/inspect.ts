import { renderStep, renderSummary } from '../render-step';
import { connect } from '../runtime';

/** `chain <id>`: the whole reasoning chain of a run, live or finished. */
export async function printChain(workflowId: string, json: boolean): Promise<void> {
  const { agents } = await connect();
  const chain = await agents.chain(workflowId);
  if (json) process.stdout.write(`${JSON.stringify(chain, null, 2)}\n`);
  else {
    process.stdout.write(`${chain.agentName}: ${chain.task}\nstatus: ${chain.status}\n\n`);
    for (const step of chain.steps) process.stdout.write(`${renderStep(step)}\n`);
  }
  await agents.client.connection.close();
}

/** `watch <id>`: steps as they land, then the outcome. */
export async function watchRun(workflowId: string): Promise<boolean> {
  const { agents } = await connect();
  const steps = agents.watch(workflowId);
  let next = await steps.next();
  while (!next.done) {
    process.stdout.write(`${renderStep(next.value)}\n`);
    next = await steps.next();
  }
  process.stdout.write(`\n${renderSummary(next.value)}\n`);
  await agents.client.connection.close();
  return next.value.success;
}

/** `status <id>`: the small status record. */
export async function printStatus(workflowId: string): Promise<void> {
  const { agents } = await connect();
  process.stdout.write(`${JSON.stringify(await agents.status(workflowId), null, 2)}\n`);
  await agents.client.connection.close();
}
