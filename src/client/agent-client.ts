import { randomUUID } from 'node:crypto';
import { Client, Connection, WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import {
  AgentInput,
  DEFAULT_NAMESPACE,
  DEFAULT_TASK_QUEUE,
  ModelAttribute,
  StatusAttribute,
  type AgentInputInit,
  type AgentResult,
  type AgentStatus,
  type ReasoningChain,
  type ReasoningStep,
} from '../shared';
import type { agentWorkflow } from '../workflows';
import { chainQuery, statusQuery } from '../workflows/messages';

export type AgentHandle = WorkflowHandle<typeof agentWorkflow>;

export interface AgentClientOptions {
  client: Client;
  taskQueue?: string;
}

export interface StartOptions {
  /** Default `agent-<uuid>`. Reusing the id of a running agent fails. */
  workflowId?: string;
}

/** Starts agents and reads their chains. Wraps a Temporal Client; holds no other state. */
export class AgentClient {
  readonly client: Client;
  readonly taskQueue: string;

  constructor(options: AgentClientOptions) {
    this.client = options.client;
    this.taskQueue = options.taskQueue ?? DEFAULT_TASK_QUEUE;
  }

  static async connect(options: { address: string; namespace?: string; taskQueue?: string }): Promise<AgentClient> {
    const connection = await Connection.connect({ address: options.address });
    const client = new Client({ connection, namespace: options.namespace ?? DEFAULT_NAMESPACE });
    return new AgentClient({ client, ...(options.taskQueue ? { taskQueue: options.taskQueue } : {}) });
  }

  /** Validates the input here, so a bad field fails at the caller rather than in a workflow task. */
  async start(init: AgentInputInit, options: StartOptions = {}): Promise<AgentHandle> {
    const input = AgentInput.parse(init);
    return this.client.workflow.start<typeof agentWorkflow>('agentWorkflow', {
      taskQueue: this.taskQueue,
      workflowId: options.workflowId ?? `agent-${randomUUID()}`,
      args: [input],
      staticSummary: input.task.length > 200 ? `${input.task.slice(0, 199)}…` : input.task,
      staticDetails: `Agent **${input.agentName}** · model \`${input.model.provider}/${input.model.model}\` · up to ${input.maxIterations} iterations`,
      typedSearchAttributes: [
        { key: StatusAttribute, value: 'started' },
        { key: ModelAttribute, value: input.model.model },
      ],
    });
  }

  getHandle(workflowId: string): AgentHandle {
    return this.client.workflow.getHandle<typeof agentWorkflow>(workflowId);
  }

  result(workflowId: string): Promise<AgentResult> {
    return this.getHandle(workflowId).result();
  }

  /**
   * The reasoning chain: from the result once the run has completed (no worker needed), else
   * from the live `chain` query (a worker must be polling to answer it).
   */
  async chain(workflowId: string): Promise<ReasoningChain> {
    const handle = this.getHandle(workflowId);
    const { status } = await handle.describe();
    if (status.name === 'COMPLETED') return (await handle.result()).chain;
    return handle.query(chainQuery);
  }

  status(workflowId: string): Promise<AgentStatus> {
    return this.getHandle(workflowId).query(statusQuery);
  }

  /**
   * Yields each step once, as it lands, until the run ends. Polls the `chain` query, so it works
   * for any run, from any process, and catches up on steps made before it was called.
   */
  async *watch(workflowId: string, pollMs = 300): AsyncGenerator<ReasoningStep, AgentResult> {
    const handle = this.getHandle(workflowId);
    let done: { result?: AgentResult; error?: unknown } | undefined;
    const finished = handle.result().then(
      (result) => (done = { result }),
      (error: unknown) => (done = { error }),
    );
    let seen = 0;
    for (;;) {
      const settled = done;
      const chain = settled?.result ? settled.result.chain : await this.chainOrUndefined(workflowId);
      for (const step of chain?.steps.slice(seen) ?? []) yield step;
      seen = Math.max(seen, chain?.steps.length ?? 0);
      if (settled) {
        if (settled.result) return settled.result;
        throw settled.error;
      }
      await Promise.race([finished, new Promise((r) => setTimeout(r, pollMs))]);
    }
  }

  private async chainOrUndefined(workflowId: string): Promise<ReasoningChain | undefined> {
    try {
      return await this.chain(workflowId);
    } catch (err) {
      // A run whose first workflow task has not run yet has no query handler.
      if (err instanceof WorkflowNotFoundError) throw err;
      return undefined;
    }
  }
}
