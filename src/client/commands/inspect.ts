import { renderStep, renderSummary } from '../render-step';
import { connect } from '../runtime';
import { printFollowed } from '../watch-printer';

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

/** `watch <id>`: steps as they land, model text as it streams, then the outcome. */
export async function watchRun(workflowId: string): Promise<boolean> {
  const { agents } = await connect();
  const result = await printFollowed(agents.follow(workflowId), process.stdout);
  process.stdout.write(`\n${renderSummary(result)}\n`);
  await agents.client.connection.close();
  return result.success;
}

/** `status <id>`: the small status record. */
export async function printStatus(workflowId: string): Promise<void> {
  const { agents } = await connect();
  process.stdout.write(`${JSON.stringify(await agents.status(workflowId), null, 2)}\n`);
  await agents.client.connection.close();
}
