import { getExternalWorkflowHandle, workflowInfo, type SignalDefinition } from '@temporalio/workflow';
import type { ApprovalRecord, DelegationLink, SubAgentRun } from '../../domain';
import type { ChainBuilder } from '../core/chain/chain-builder';
import { readMessage } from '../core/read-message';
import { SubAgentApprovals, subAgentApprovalsSignal } from '../messages';

/**
 * A run's view of the tree below it: its child runs (kept in the chain, so they are queried and
 * carried with it) and the approvals its descendants wait for, which each child reports up with
 * the `subAgentApprovals` signal whenever its own tree's list changes. Workflows cannot query
 * one another; the report is how a parent's `status` lists a grandchild's pending call.
 */
export class SubAgentTree {
  private readonly below = new Map<string, ApprovalRecord[]>();
  private lastReported = '[]';

  constructor(
    private readonly chain: ChainBuilder,
    private readonly path: readonly DelegationLink[],
  ) {}

  get runs(): readonly SubAgentRun[] {
    return this.chain.subAgents;
  }

  running(): SubAgentRun[] {
    return this.runs.filter((r) => r.status === 'running');
  }

  /** Sends a signal to every running child run; one that already ended is not an error. A remote agent is not a workflow here. */
  forward<Args extends unknown[]>(signal: SignalDefinition<Args>, ...args: Args): void {
    for (const run of this.running().filter((r) => !r.remote))
      void getExternalWorkflowHandle(run.workflowId)
        .signal(signal, ...args)
        .catch(() => undefined);
  }

  put(run: SubAgentRun): void {
    this.chain.putSubAgent(run);
  }

  /** A child's report (the signal's payload, total over any value); ignored when it does not parse or names a run this one did not start (a stray or late signal). */
  receive(raw: unknown): boolean {
    const report = readMessage(SubAgentApprovals, raw);
    if (!report) return false;
    const { workflowId, pending } = report;
    if (!this.runs.some((r) => r.workflowId === workflowId && r.status === 'running')) return false;
    this.below.set(workflowId, pending);
    return true;
  }

  /** A child that ended waits for nothing. */
  ended(workflowId: string): void {
    this.below.delete(workflowId);
  }

  /** This run's own pending calls, marked with where they wait, then its descendants'. */
  pending(own: readonly ApprovalRecord[]): ApprovalRecord[] {
    const here = this.path[this.path.length - 1]!;
    const mine = own.map((r) => ({ ...r, workflowId: here.workflowId, agentPath: this.path.map((l) => l.agentName) }));
    return [...mine, ...[...this.below.values()].flat()];
  }

  /** Tells the parent (if any) when the tree's pending list changed; a parent that ended is not an error. */
  reportUp(own: readonly ApprovalRecord[]): void {
    const parent = workflowInfo().parent;
    if (!parent) return;
    const pending = this.pending(own);
    const key = JSON.stringify(pending.map((r) => [r.workflowId, r.callId, r.status]));
    if (key === this.lastReported) return;
    this.lastReported = key;
    const here = this.path[this.path.length - 1]!;
    getExternalWorkflowHandle(parent.workflowId)
      .signal(subAgentApprovalsSignal, { workflowId: here.workflowId, pending })
      .catch(() => undefined);
  }
}
