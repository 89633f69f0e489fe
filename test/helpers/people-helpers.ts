import { ApplicationFailure } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { z } from 'zod';
import type { ModelProvider } from '../../src/activities';
import { createScriptedModel, type ScriptedModel, type ScriptedTurn } from '../../src/activities/models/scripted-model';
import { afterAll, beforeAll } from 'vitest';
import { FailureType, type ModelRequest } from '../../src/domain';
import { defineTool, type ToolDefinition } from '../../src/tools/define-tool';
import { pollFor } from './approval-helpers';
import { createHarness, useTestEnv, type AgentHarness, type TestEnv } from './temporal-env';

const EventType = temporal.api.enums.v1.EventType;

/** The task a request belongs to: the text of its first user message. */
export function taskOf(request: ModelRequest): string {
  const first = request.messages[0];
  const block = first?.content[0];
  return block?.type === 'text' ? block.text : '';
}

/**
 * One scripted model per task, behind a single `scripted` provider, so many runs share one
 * worker (and run at once) while each keeps its own script and its own record of calls.
 */
export class ScriptBook {
  private readonly scripts = new Map<string, ScriptedModel>();

  script(task: string, turns: readonly ScriptedTurn[]): ScriptedModel {
    if (this.scripts.has(task)) throw new Error(`Task "${task}" already has a script; tasks must be unique.`);
    const model = createScriptedModel(turns);
    this.scripts.set(task, model);
    return model;
  }

  readonly provider: ModelProvider = {
    name: 'scripted',
    complete: (request, signal, hooks) => {
      const model = this.scripts.get(taskOf(request));
      if (!model) {
        const message = `No script for task "${taskOf(request)}".`;
        throw ApplicationFailure.create({ type: FailureType.ScriptExhausted, message, nonRetryable: true });
      }
      return model.complete(request, signal, hooks);
    },
  };
}

/**
 * pollFor for checks that answer yes or no: false counts as not yet. Gently, every 150 ms: on a
 * worker that replays every task (replayEveryTask) each query replays the whole run.
 */
export function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  return pollFor(
    what,
    async () => {
      const value = await check();
      return value === false ? undefined : value;
    },
    timeoutMs,
    150,
  );
}

interface Gate {
  started: boolean;
  open: Promise<void>;
  release(): void;
}

/**
 * A tool that holds its activity until the test opens its gate (by name), so a run stays busy
 * mid-step exactly as long as a test needs. It honours cancellation. Past `timeoutMs` its activity
 * times out and the run goes on: a gate never released does not hold a run for ever. The default,
 * 120 s, outlasts a test that sends a held run many messages on a loaded machine (the hostile-message
 * loop took 45 s at load 14).
 */
export function gateTool({ timeoutMs = 120_000 }: { timeoutMs?: number } = {}) {
  const gates = new Map<string, Gate>();
  const get = (name: string): Gate => {
    let gate = gates.get(name);
    if (!gate) {
      let release = () => undefined as void;
      const open = new Promise<void>((resolve) => (release = resolve));
      gate = { started: false, open, release };
      gates.set(name, gate);
    }
    return gate;
  };
  const tool = defineTool({
    name: 'wait_for_gate',
    description: 'Works until its gate opens',
    input: z.object({ gate: z.string() }),
    retry: { maximumAttempts: 1 },
    timeoutMs,
    execute: async ({ gate }, { signal }) => {
      const g = get(gate);
      g.started = true;
      await new Promise<void>((resolve, reject) => {
        void g.open.then(resolve);
        signal.addEventListener('abort', () => reject(new Error('aborted')));
      });
      return `gate ${gate} opened`;
    },
  });
  return { tool, started: (name: string) => get(name).started, release: (name: string) => get(name).release() };
}

/** Update events (admitted, accepted, rejected, completed) in the history of a workflow id's latest run. */
export async function updateEvents(client: Client, workflowId: string): Promise<string[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const kinds = new Set([
    EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ADMITTED,
    EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED,
    EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_REJECTED,
    EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED,
  ]);
  return (history.events ?? [])
    .filter((e) => e.eventType != null && kinds.has(e.eventType))
    .map((e) => EventType[e.eventType!]);
}

/** Text of every text block and tool result the model was sent in one request. */
export function requestTexts(request: ModelRequest): string[] {
  return request.messages.flatMap((m) =>
    m.content.flatMap((b) => (b.type === 'text' ? [b.text] : b.type === 'tool_result' ? [b.content] : [])),
  );
}

/** How many times `needle` occurs in `haystack`. */
export function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/**
 * One worker for a whole test file, started before its tests and stopped after them. Each test
 * gives its run its own task, so one ScriptBook serves them all and runs can go in parallel.
 */
export function sharedWorker(
  tools: () => readonly ToolDefinition[],
  provider: ModelProvider,
): { env: TestEnv; h: AgentHarness } {
  const shared = { env: useTestEnv() } as { env: TestEnv; h: AgentHarness };
  let running: Promise<void> | undefined;
  beforeAll(async () => {
    shared.h = await createHarness(shared.env, { tools: tools(), models: { scripted: provider } });
    running = shared.h.worker.run();
  });
  afterAll(async () => {
    shared.h?.worker.shutdown();
    await running;
  });
  return shared;
}
