import { userInfo } from 'node:os';
import { createInterface } from 'node:readline';
import type { Config } from '../../../config';
import type { ApprovalRecord, Person } from '../../../domain';
import { renderPendingApproval } from '../../../client/decisions/render-pending-approval';
import { routeApproval } from '../../../client/decisions/route-approval';
import { connect } from '../../setup/runtime';
import { writeSafe } from '../../render/terminal-safe';
import { decisionSending } from './decision-sending';
import { refuseIfEnded } from './require-open-run';

/** The person the CLI acts for: flags first, then THOUGHTLINE_USER / THOUGHTLINE_ROLES, then the OS user. */
export function actingPerson(config: Readonly<Config>, flags: { as?: string; roles?: string }): Person {
  const roles =
    flags.roles !== undefined
      ? flags.roles
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean)
      : config.roles;
  return { id: flags.as ?? config.user ?? userInfo().username, roles };
}

/**
 * `approve <run> [call]` and `reject <run> [call] --reason`: picks the call (the one named, or the
 * only one pending in the run's tree), shows what is decided and asks (`--yes` skips the question,
 * for scripts), then sends the update to the run that waits, which may be a sub-agent of the run
 * named. The decision carries the hash of the arguments shown, so it covers nothing else; it is
 * signed when a keyring is at hand (decision-sending.ts), so the run counts the roles.
 */
export async function decideCall(
  workflowId: string,
  callId: string | undefined,
  options: {
    approved: boolean;
    reason?: string;
    as?: string;
    roles?: string;
    /** The keyring to sign with (`--signing-keys`); default decision-keyring.ts's, when readable. */
    signingKeys?: string;
    yes?: boolean;
    /** A lost `once` call took effect: record it done (with `result`) instead of running it again. */
    markDone?: boolean;
    result?: string;
  },
): Promise<ApprovalRecord> {
  const { agents, config } = await connect();
  try {
    if (!options.approved && !options.reason?.trim())
      throw new Error('reject needs --reason: the agent reads it to decide what to do instead.');
    if (options.result !== undefined && !options.markDone)
      throw new Error('--result goes with --mark-done: it is the result of a call that took effect.');
    await refuseIfEnded(agents, workflowId, options.approved ? 'approve' : 'reject');
    const route = routeApproval(workflowId, await agents.pendingApprovals(workflowId), {
      callId,
      verb: options.approved ? 'approve' : 'reject',
    });
    if (route.kind === 'refuse') throw new Error(route.message);
    if (!route.record)
      throw new Error(`No pending call ${route.callId} to show in ${workflowId}; nothing was decided.`);
    writeSafe(process.stdout, `${renderPendingApproval(route.record, workflowId)}\n`);
    const verb = options.approved ? 'Approve' : 'Reject';
    if (
      !options.yes &&
      !(await confirm(`${verb} ${route.record.toolName} (${route.callId}) with the arguments above? [y/N] `))
    ) {
      throw new Error('Not decided: answer y to decide, or pass --yes (for scripts).');
    }
    const by = actingPerson(config, options);
    // The run's own hash of what was shown: the view may redact the arguments it prints.
    const shown = route.record.argumentsHash;
    const decided = await agents.decide(
      workflowId,
      {
        callId: route.callId,
        approved: options.approved,
        by,
        argumentsHash: shown,
        ...(options.reason ? { reason: options.reason } : {}),
        ...(options.markDone ? { markDone: true } : {}),
        ...(options.result !== undefined ? { result: options.result } : {}),
      },
      decisionSending(by, options.signingKeys),
    );
    const where = route.workflowId === workflowId ? '' : ` in ${route.workflowId}`;
    writeSafe(process.stdout, `${decided.status} by ${by.id}: ${decided.toolName} (${decided.callId})${where}\n`);
    return decided;
  } finally {
    await agents.client.connection.close();
  }
}

/** Asks on stderr and reads one line of standard input; only y or yes (any case) agrees, and end of input does not. */
function confirm(question: string): Promise<boolean> {
  return new Promise((resolve) => {
    writeSafe(process.stderr, question);
    const lines = createInterface({ input: process.stdin });
    let answered = false;
    lines.once('line', (line) => {
      answered = true;
      lines.close();
      resolve(/^\s*y(es)?\s*$/i.test(line));
    });
    lines.once('close', () => {
      if (!answered) resolve(false);
    });
  });
}
