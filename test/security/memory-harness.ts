import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { z } from 'zod';
import type { ModelProvider } from '../../src/activities';
import { createScriptedModel, type ScriptedModel, type ScriptedTurn } from '../../src/activities/models/scripted-model';
import type { AgentInputInit, AgentResult } from '../../src/domain';
import { defineTool } from '../../src/tools/define-tool';
import { requestTexts } from '../helpers/people-helpers';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';

/**
 * One worker on the suite's dev server, with its own SQLite run cache and a counting `lookup`
 * tool, for runs that go one at a time and each play their own script (memory and plan reuse need
 * later runs on the same task queue as earlier ones, which a harness per run would not give).
 */
export function useSequentialRuns() {
  const env = useTestEnv();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memory-security-'));
  const cacheFile = path.join(dir, 'cache.sqlite');
  const counter = { calls: 0 };
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks a word up',
    input: z.object({ word: z.string() }),
    execute: async ({ word }) => {
      counter.calls += 1;
      return `definition of ${word}`;
    },
  });
  let current: ScriptedModel | undefined;
  const provider: ModelProvider = {
    name: 'scripted',
    complete: (request, signal, hooks) => current!.complete(request, signal, hooks),
  };
  const harness = {} as { h: AgentHarness };
  let running: Promise<void>;
  beforeAll(async () => {
    harness.h = await createHarness(env, { tools: [lookup], models: { scripted: provider }, cacheFile });
    running = harness.h.worker.run();
  });
  afterAll(async () => {
    harness.h?.worker.shutdown();
    await running;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs `init` to a successful end with `turns` as its model's script. */
  async function run(
    turns: ScriptedTurn[],
    init: Partial<AgentInputInit>,
  ): Promise<{ result: AgentResult; model: ScriptedModel; workflowId: string }> {
    const model = createScriptedModel(turns);
    current = model;
    const handle = await harness.h.agents.start({
      task: 'Look it up',
      model: SCRIPTED_MODEL,
      maxIterations: 6,
      ...init,
    });
    const result = await handle.result();
    expect(result.terminationReason, JSON.stringify(result.error)).toBe('success');
    return { result, model, workflowId: handle.workflowId };
  }

  return { harness, run, counter, cacheFile };
}

/** Everything the model read in one run, its calls' texts joined. */
export const promptsOf = (model: ScriptedModel): string =>
  model.calls.map((c) => requestTexts(c).join('\n')).join('\n');
