import { randomUUID } from 'node:crypto';
import type { Worker, WorkerOptions } from '@temporalio/worker';
import type { ModelProvider } from '../../src/activities';
import { AgentClient } from '../../src/client/agent-client';
import type { ToolDefinition } from '../../src/tools/define-tool';
import { createAgentWorker } from '../../src/worker';
import type { BenchContext } from './bench-context';

export interface BenchWorkerSetup {
  model: ModelProvider;
  tools: readonly ToolDefinition[];
  /** Passed to Temporal's Worker as given; `{}` is the SDK's defaults (workflows cached). */
  workerOptions?: Partial<WorkerOptions>;
  /** Default: a fresh queue, so no other figure's worker takes these tasks. */
  taskQueue?: string;
}

/** Runs `fn` while an in-process agent worker serves a task queue, then shuts the worker down. */
export async function withBenchWorker<T>(
  ctx: BenchContext,
  setup: BenchWorkerSetup,
  fn: (agents: AgentClient, worker: Worker) => Promise<T>,
): Promise<T> {
  const taskQueue = setup.taskQueue ?? `bench-${randomUUID()}`;
  const worker = await createAgentWorker({
    connection: ctx.nativeConnection,
    namespace: ctx.server.namespace,
    taskQueue,
    tools: setup.tools,
    models: { scripted: setup.model },
    workflowBundle: { codePath: ctx.bundlePath },
    workerOptions: setup.workerOptions ?? {},
  });
  return worker.runUntil(() => fn(new AgentClient({ client: ctx.client, taskQueue }), worker));
}

/** The model settings of every bench run: the bench model (served as `scripted`), other settings at their defaults. */
export const BENCH_MODEL = { provider: 'scripted', model: 'bench-model' } as const;
