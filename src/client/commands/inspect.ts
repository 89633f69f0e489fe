import type { ViewerRole } from '../../shared';
import { renderExpandedChain } from '../render/render-expanded-chain';
import { renderStatus } from '../render/render-status';
import { renderStep, renderSummary } from '../render/render-step';
import { renderTree } from '../render/render-tree';
import { connect } from '../runtime';
import { printFollowed } from '../watch-printer';
import { writeForStdout, writeSafe } from '../render/terminal-safe';

/**
 * `chain <id> [--expand]`: the whole reasoning chain of a run, live or finished, in a role's view;
 * with `expand`, each sub-agent's chain under its result, recursively.
 */
export async function printChain(workflowId: string, options: { json: boolean; role: ViewerRole; expand?: boolean }): Promise<void> {
  const { agents } = await connect();
  try {
    const { json, role } = options;
    const expanded = options.expand ? await agents.expandedChain(workflowId, role) : undefined;
    const chain = expanded?.chain ?? (await agents.chain(workflowId, role));
    if (json) writeForStdout(`${JSON.stringify(expanded ?? chain, null, 2)}\n`);
    else {
      const hidden = chain.view?.hiddenSteps ? ` · ${chain.view.hiddenSteps} steps hidden in this view` : '';
      writeSafe(process.stdout, `${chain.agentName}: ${chain.task}\nstatus: ${chain.status} · view: ${role}${hidden}\n\n`);
      const body = expanded ? renderExpandedChain(expanded) : chain.steps.map(renderStep).join('\n');
      if (body) writeSafe(process.stdout, `${body}\n`);
    }
  } finally {
    await agents.client.connection.close();
  }
}

/** `watch <id>`: steps as they land, model text as it streams, then the outcome. */
export async function watchRun(workflowId: string): Promise<boolean> {
  const { agents } = await connect();
  const result = await printFollowed(agents.follow(workflowId), process.stdout);
  writeSafe(process.stdout, `\n${renderSummary(result)}\n`);
  await agents.client.connection.close();
  return result.success;
}

/**
 * `status <id> [--role R]`: the small status record, the plan, the sub-agents, the calls awaiting a
 * decision and any open question, in a role's view (default developer).
 */
export async function printStatus(workflowId: string, json: boolean, role: ViewerRole = 'developer'): Promise<void> {
  const { agents } = await connect();
  try {
    const status = await agents.status(workflowId, role);
    if (json) writeForStdout(`${JSON.stringify(status, null, 2)}\n`);
    else writeSafe(process.stdout, renderStatus(workflowId, status));
  } finally {
    await agents.client.connection.close();
  }
}

/** `tree <id>`: the run and its sub-agents, recursively, with state, spend, budgets and pending calls. */
export async function printTree(workflowId: string, json: boolean): Promise<void> {
  const { agents } = await connect();
  try {
    const tree = await agents.tree(workflowId);
    if (json) writeForStdout(`${JSON.stringify(tree, null, 2)}\n`);
    else writeSafe(process.stdout, `${renderTree(tree)}\n`);
  } finally {
    await agents.client.connection.close();
  }
}
