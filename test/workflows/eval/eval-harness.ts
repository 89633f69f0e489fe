import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { Worker } from '@temporalio/worker';
import { inject } from 'vitest';
import { say, useTool } from '../../../src/activities/models/scripted-model';
import type { AgentInputInit, AssistantBlock, ModelReply, ModelRequest } from '../../../src/domain';
import type { ModelProvider } from '../../../src/domain/model/model-provider';
import type { EvaluationInputInit, EvaluationResult } from '../../../src/domain/evaluation';
import type { ScorerDefinition } from '../../../src/eval/define-scorer';
import type { ToolDefinition } from '../../../src/tools/define-tool';
import { createAgentWorker } from '../../../src/worker';
import { EVALUATION_WORKFLOW } from '../../../src/workflows/eval/eval-messages';
import type { EvaluationWorkflowOptions } from '../../../src/workflows/eval/evaluation-workflow';
import type { TestEnv } from '../../helpers/temporal-env';

const EventType = temporal.api.enums.v1.EventType;

/** What each model call costs in these tests, so budgets are easy to reason about. */
export const CALL_COST_USD = 0.01;

/**
 * A stateless model for evaluations, whose runs interleave: it answers from the task and the
 * conversation alone. "lookup" tasks look `al` up, then finish; "slow" tasks start the slow job;
 * anything else finishes at once. Each call is logged as `model:task`.
 */
export function evalModel(log: string[] = []): ModelProvider & { log: string[] } {
  return {
    name: 'scripted',
    log,
    async complete(request: ModelRequest): Promise<ModelReply> {
      const first = request.messages[0]?.content[0];
      const task = first && first.type === 'text' ? first.text : '';
      const answered = request.messages.some(
        (m) => m.role === 'user' && m.content.some((b) => b.type === 'tool_result'),
      );
      log.push(`${request.model}:${task}`);
      const content: AssistantBlock[] =
        task.includes('slow') && !answered
          ? [say('This needs the slow job.'), useTool('slow_job', {})]
          : task.includes('lookup') && !answered
            ? [say('I need the value of al.'), useTool('lookup', { key: 'al' })]
            : [say('I have what I need.'), useTool('finish', { result: 'the answer is 20' })];
      return {
        content,
        stopReason: 'tool_use',
        model: request.model,
        usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: CALL_COST_USD,
        durationMs: 0,
      };
    },
  };
}

export const variant = (id: string) => ({ id, model: { provider: 'scripted', model: `model-${id}` } });

/** An evaluation's input with a name and dataset filled in. */
export const evaluation = (init: Omit<EvaluationInputInit, 'name' | 'dataset'>): EvaluationInputInit => ({
  name: 'test evaluation',
  dataset: { name: 'cases.jsonl', sha256: 'abc' },
  ...init,
});

export interface EvalHarness {
  worker: Worker;
  taskQueue: string;
  start(
    input: EvaluationInputInit,
    options?: EvaluationWorkflowOptions,
  ): Promise<{ workflowId: string; result: () => Promise<EvaluationResult> }>;
}

/** A worker on its own task queue that replays every workflow task (a determinism bug fails the test). */
export async function evalHarness(
  env: TestEnv,
  deps: {
    tools: readonly ToolDefinition[];
    models: Record<string, ModelProvider>;
    scorers?: readonly ScorerDefinition[];
  },
): Promise<EvalHarness> {
  const taskQueue = `test-${randomUUID()}`;
  const worker = await createAgentWorker({
    connection: env.nativeConnection,
    namespace: inject('temporalNamespace'),
    taskQueue,
    tools: deps.tools,
    models: deps.models,
    ...(deps.scorers ? { scorers: deps.scorers } : {}),
    workflowBundle: { codePath: inject('workflowBundlePath') },
    workerOptions: { maxCachedWorkflows: 0 },
  });
  return {
    worker,
    taskQueue,
    async start(input, options) {
      const workflowId = `eval-${randomUUID()}`;
      const handle = await env.client.workflow.start(EVALUATION_WORKFLOW, {
        taskQueue,
        workflowId,
        args: options ? [input, options] : [input],
      });
      return { workflowId, result: () => handle.result() as Promise<EvaluationResult> };
    },
  };
}

/** The child workflows a run started, in order, by id. */
export async function childStarts(client: Client, workflowId: string): Promise<string[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).flatMap((e) =>
    e.eventType === EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED
      ? [e.startChildWorkflowExecutionInitiatedEventAttributes!.workflowId!]
      : [],
  );
}

/** Most children of a run in flight at once, from its history (started to closed). */
export async function mostChildrenAtOnce(client: Client, workflowId: string): Promise<number> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const closed = new Set([
    EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED,
    EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_FAILED,
    EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_CANCELED,
    EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TERMINATED,
    EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TIMED_OUT,
    EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_FAILED,
  ]);
  let running = 0;
  let most = 0;
  for (const e of history.events ?? []) {
    if (e.eventType === EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) running += 1;
    if (e.eventType && closed.has(e.eventType)) running -= 1;
    most = Math.max(most, running);
  }
  return most;
}

/** The input a run was started with (its first event). */
export async function startInput(client: Client, workflowId: string): Promise<AgentInputInit> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const payload = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
  return client.options.loadedDataConverter.payloadConverter.fromPayload(payload);
}

/** The whole history of a run as text (JSON payloads are plain), to check what it does not hold. */
export async function historyText(client: Client, workflowId: string): Promise<string> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1');
}
