import type { ChainPage, ViewerRole } from '../../domain';
import { AgentClient } from '../../client/agent-client';
import { renderExpandedChain } from '../render/render-expanded-chain';
import { renderStatus } from '../render/render-status';
import { renderSteps, renderSummary } from '../render/render-step';
import { renderTree } from '../render/render-tree';
import { renderUnavailable } from '../../domain/chain/render-unavailable';
import { requireServedRun } from '../../client/follow/served-run';
import { withQueryDeadline } from '../../client/follow/query-deadline';
import { watchForStall } from '../../client/follow/stall-watch';
import { stallAdvice } from '../../client/follow/worker-advice';
import { cliName } from '../../client/follow/cli-name';
import { connect, log, type Connected } from '../setup/runtime';
import { followOnScreen } from './watch-printer';
import type { Followed } from '../dashboard/show-dashboard';
import { INTERRUPTED_EXIT_CODE, watchInterruption } from '../../client/follow/interruption';
import { writeForStdout, writeSafe } from '../render/terminal-safe';
import type { LoadedPolicy } from '../../governance/load-visibility-policy';
import { withPolicy } from '../spec/policy-option';
import { viewResult } from '../../domain/chain/chain-view';
import { identityOfChain } from '../../client/runs/run-lens';
import { readRunEnding } from './read-run-ending';
import { counted } from '../../domain/text/counted';

/**
 * `chain <id> [--expand] [--after-step N] [--limit N]`: the reasoning chain of a run, live or
 * finished, in a role's view, whole or one page of steps; with `expand`, each sub-agent's chain
 * under its result, recursively.
 */
export async function printChain(
  workflowId: string,
  options: { json: boolean; role: ViewerRole; expand?: boolean; page?: ChainPage; policy?: LoadedPolicy },
): Promise<void> {
  const c = await connect();
  const agents = withPolicy(c.agents, options.policy);
  try {
    const { json, role } = options;
    const { expanded, chain } = await readServed(c, workflowId, async () => {
      const withChildren = options.expand ? await agents.expandedChain(workflowId, role) : undefined;
      return {
        expanded: withChildren,
        chain: withChildren?.chain ?? (await agents.chain(workflowId, role, options.page)),
      };
    });
    if (json) writeForStdout(`${JSON.stringify(expanded ?? chain, null, 2)}\n`);
    else {
      const hidden = chain.view?.hiddenSteps ? ` · ${counted(chain.view.hiddenSteps, 'step')} hidden in this view` : '';
      const narrowed = chain.view?.narrowed ? ` · ${chain.view.narrowed} narrowed by the visibility policy` : '';
      writeSafe(
        process.stdout,
        `${chain.agentName}: ${chain.task}\nstatus: ${chain.status} · view: ${role}${hidden}${narrowed}\n\n`,
      );
      if (chain.unavailable) writeSafe(process.stdout, `${renderUnavailable(chain.unavailable)}\n\n`);
      const body = expanded ? renderExpandedChain(expanded) : renderSteps(chain.steps).join('\n');
      if (body) writeSafe(process.stdout, `${body}\n`);
    }
  } finally {
    await agents.client.connection.close();
  }
}

/**
 * `watch <id>`: steps as they land, model text as it streams, then the outcome. Refuses at once,
 * saying what to start, when no worker polls the run's task queue (a completed run needs none),
 * and says so while following when its tasks wait with nobody taking them. With
 * THOUGHTLINE_SERVER_URL set, follows the server's push stream (as THOUGHTLINE_TOKEN's identity)
 * instead of polling.
 */
export async function watchRun(
  workflowId: string,
  options: { dashboard?: boolean; policy?: LoadedPolicy } = {},
): Promise<boolean> {
  const connected = await connect();
  const { config } = connected;
  const agents = withPolicy(connected.agents, options.policy);
  await requireServedRun(agents, workflowId, config.taskQueue);
  // Through a server, its own policy narrows what it pushes (serve --policy).
  const follower = config.server
    ? new AgentClient({
        client: agents.client,
        taskQueue: agents.taskQueue,
        server: config.server,
        ...(options.policy ? { visibilityPolicy: options.policy } : {}),
      })
    : agents;
  // On the dashboard the advice goes in its box: a line logged under it would be drawn over.
  let screen: Followed | undefined;
  const stopStallWatch = watchForStall(agents.client, workflowId, ({ waitedMs, taskQueue }) => {
    const advice = stallAdvice(workflowId, waitedMs, taskQueue, config.taskQueue);
    if (!screen?.notice(advice)) log(advice);
  });
  // The dashboard's goal line: one page of one step is the cheapest read that carries the task.
  const dashboard = options.dashboard
    ? {
        workflowId,
        goal: await agents.chain(workflowId, 'developer', { limit: 1 }).then(
          (chain) => chain.task,
          // The goal line is a courtesy: a failed read leaves it empty rather than failing the watch.
          () => '',
        ),
        readStatus: (id: string) => agents.status(id),
      }
    : undefined;
  const interruption = watchInterruption();
  interruption.arm();
  screen = followOnScreen(follower.follow(workflowId), process.stdout, dashboard);
  const shown = screen;
  const ended = await Promise.race([shown.result, interruption.signalled.then(() => undefined)]).finally(() => {
    shown.close();
    interruption.dispose();
    return stopStallWatch();
  });
  if (!ended) {
    // Ctrl-C: watching stops, the run does not.
    process.stderr.write(
      `\nStopped following ${workflowId}; the run goes on. Follow it again with:\n  ${cliName()} watch ${workflowId}\n`,
    );
    process.exit(INTERRUPTED_EXIT_CODE);
  }
  // The developer's view, as the steps were followed (under the policy's lens, with one): the ending comes from it.
  const result = viewResult(ended, 'developer', agents.lensOf(identityOfChain(ended.chain), 'developer'));
  writeSafe(process.stdout, `\n${renderSummary(result)}\n`);
  await agents.client.connection.close();
  return result.success;
}

/**
 * `status <id> [--role R]`: the small status record, the plan, the sub-agents, the calls awaiting a
 * decision and any open question, in a role's view (default developer); for an ended run, how it
 * ended and why (its `runEnding` in the same view; `--json` adds it as `ending`).
 */
export async function printStatus(workflowId: string, json: boolean, role: ViewerRole = 'developer'): Promise<void> {
  const c = await connect();
  const { agents } = c;
  try {
    const status = await readServed(c, workflowId, () => agents.status(workflowId, role));
    const ending = await readRunEnding(agents, workflowId, role);
    if (json) writeForStdout(`${JSON.stringify(ending ? { ...status, ending } : status, null, 2)}\n`);
    else writeSafe(process.stdout, renderStatus(workflowId, status, role, ending));
  } finally {
    await agents.client.connection.close();
  }
}

/** `tree <id>`: the run and its sub-agents, recursively, with state, spend, budgets and pending calls. */
export async function printTree(workflowId: string, json: boolean): Promise<void> {
  const c = await connect();
  const { agents } = c;
  try {
    const tree = await readServed(c, workflowId, () => agents.tree(workflowId));
    if (json) writeForStdout(`${JSON.stringify(tree, null, 2)}\n`);
    else writeSafe(process.stdout, `${renderTree(tree)}\n`);
  } finally {
    await agents.client.connection.close();
  }
}

/** A query needs a worker now, not one on its way: a short grace only for one that is just starting. */
const QUERY_GRACE_MS = 1_000;

/**
 * Reads a run through its worker when it needs one: refuses at once when none polls its queue,
 * and bounds the wait for one that polls but does not answer.
 */
async function readServed<T>({ agents, config }: Connected, workflowId: string, read: () => Promise<T>): Promise<T> {
  await requireServedRun(agents, workflowId, config.taskQueue, QUERY_GRACE_MS);
  return withQueryDeadline(agents, { workflowId, configuredQueue: config.taskQueue }, read);
}
