import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { inject } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { AgentClient } from '../../src/client/agent-client';
import { ensureSearchAttributes } from '../../src/client/start/search-attributes-setup';
import type { EventBus } from '../../src/events/event-bus';
import type { ModelProvider } from '../../src/domain/model/model-provider';
import { zeroUsage } from '../../src/domain';
import type { RunEvent } from '../../src/domain/run/run-event';
import { createAgentWorker } from '../../src/worker';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import type { TestEnv } from '../helpers/temporal-env';
import { freshNamespace } from '../helpers/fresh-namespace';
import { testTools } from '../helpers/test-tools';

/**
 * A model for any number of runs at once: each conversation makes `lookups` tool calls, then
 * finishes; every reply `delayMs` late (long enough for a test to act mid-run).
 */
export function lookupModel(lookups: number, delayMs: number): ModelProvider {
  return {
    name: 'scripted',
    async complete(request) {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const turn = request.messages.filter((m) => m.role === 'assistant').length;
      const content =
        turn < lookups
          ? [say(`Looking up k${turn}.`), useTool('lookup', { key: `k${turn}` })]
          : [useTool('finish', { result: 'done' })];
      return {
        content,
        stopReason: 'tool_use',
        model: request.model,
        usage: { ...zeroUsage(), inputTokens: 100, outputTokens: 20 },
        costUsd: 0.001,
        durationMs: delayMs,
      };
    },
  };
}

/**
 * Publishes into `inner` except the events `drops` picks (given each event and how many step
 * events of its run came before it, this one included): a bus that loses events on purpose.
 */
export function lossyPublisher(
  inner: EventBus,
  drops: (event: RunEvent, stepIndex: number) => boolean,
): { publish(event: RunEvent): void; dropped: RunEvent[] } {
  const steps = new Map<string, number>();
  const dropped: RunEvent[] = [];
  return {
    dropped,
    publish(event) {
      const index = (steps.get(event.runId) ?? 0) + (event.type === 'step' ? 1 : 0);
      steps.set(event.runId, index);
      if (drops(event, index)) return void dropped.push(event);
      inner.publish(event);
    },
  };
}

/**
 * A worker on its own task queue and in a namespace of its own (with Thoughtline's search
 * attributes) publishing run events to `publish`, and a client for it. Its own namespace keeps the
 * projection's sweeps to this test's runs: the suite's shared namespace holds every other file's.
 */
export async function createFeedWorker(
  env: TestEnv,
  model: ModelProvider,
  publish: { publish(event: RunEvent): void },
) {
  const taskQueue = `store-feed-${randomUUID()}`;
  const namespace = await freshNamespace(env.client, 'store-feed');
  await ensureSearchAttributes(env.client, namespace);
  const client = new Client({ connection: env.client.connection, namespace });
  const worker = await createAgentWorker({
    connection: env.nativeConnection,
    namespace,
    taskQueue,
    tools: testTools().tools,
    models: { scripted: model },
    secrets: [],
    events: publish,
    cacheFile: path.join(os.tmpdir(), `thoughtline-test-cache-${randomUUID()}.sqlite`),
    workflowBundle: { codePath: inject('workflowBundlePath') },
  });
  const agents = new AgentClient({ client, taskQueue });
  const start = (task: string) => agents.start({ model: SCRIPTED_MODEL, task, requireThought: false });
  return { worker, agents, taskQueue, namespace, start };
}

/** Polls `check` until it holds (true) or `ms` pass; returns its last answer. */
export async function eventually(check: () => Promise<boolean>, ms = 20_000): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
