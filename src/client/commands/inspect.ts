import type { ViewerRole } from '../../shared';
import { renderStep, renderSummary } from '../render-step';
import { renderPendingApproval } from './decide';
import { connect } from '../runtime';
import { printFollowed } from '../watch-printer';

/** `chain <id>`: the whole reasoning chain of a run, live or finished, in a role's view. */
export async function printChain(workflowId: string, json: boolean, role: ViewerRole): Promise<void> {
  const { agents } = await connect();
  const chain = await agents.chain(workflowId, role);
  if (json) process.stdout.write(`${JSON.stringify(chain, null, 2)}\n`);
  else {
    const hidden = chain.view?.hiddenSteps ? ` · ${chain.view.hiddenSteps} steps hidden in this view` : '';
    process.stdout.write(`${chain.agentName}: ${chain.task}\nstatus: ${chain.status} · view: ${role}${hidden}\n\n`);
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

/** `status <id>`: the small status record, then the calls awaiting a decision and any open question. */
export async function printStatus(workflowId: string, json: boolean): Promise<void> {
  const { agents } = await connect();
  const status = await agents.status(workflowId);
  if (json) process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
  else {
    const { pendingApprovals, openQuestion, ...rest } = status;
    process.stdout.write(`${JSON.stringify(rest, null, 2)}\n`);
    process.stdout.write(pendingApprovals.length ? `\nPending approvals (${pendingApprovals.length}):\n${pendingApprovals.map(renderPendingApproval).join('\n')}\n` : '\nNo calls awaiting approval.\n');
    if (openQuestion) process.stdout.write(`\nOpen question (${openQuestion.callId}): ${openQuestion.question}\nAnswer with: thoughtline answer ${workflowId} "<text>"\n`);
  }
  await agents.client.connection.close();
}
