import type { ModelProvider } from '../../src/activities';
import { createScriptedModel, type ScriptedModel, type ScriptedTurn } from '../../src/activities/models/scripted-model';
import type { AgentInputInit, AgentResult } from '../../src/domain';
import type { ToolDefinition } from '../../src/tools/define-tool';
import type { AgentWorkerOptions } from '../../src/worker';
import { SCRIPTED_MODEL } from './scripted-input';
import { createHarness, type AgentHarness, type TestEnv } from './temporal-env';
import { testTools, type ToolLog } from './test-tools';

interface RunOptions<T> {
  /** The run's input; `model` defaults to SCRIPTED_MODEL. */
  input: Partial<AgentInputInit> & { task: string };
  /** The worker's tools; by default the test tools (lookup, always_fails, big_result). */
  tools?: readonly ToolDefinition[];
  /** Providers the worker has besides `scripted` (a judge model's, say). */
  models?: Partial<Record<string, ModelProvider>>;
  /** Agents the worker registers (runs start them by name); default none. */
  agents?: AgentWorkerOptions['agents'];
  /** Guardrails the worker registers (runs name them); default none. */
  guardrails?: AgentWorkerOptions['guardrails'];
  /** Runs once the agent has started, with the worker polling; what it returns comes back as `observed`. */
  during?: (run: { h: AgentHarness; workflowId: string }) => Promise<T>;
}

/** A fresh scripted model plays `script` and is verified after the run (no turn missing, none left over). */
export interface ScriptRun<T> extends RunOptions<T> {
  script: readonly ScriptedTurn[];
  /** A provider around the scripted model, e.g. one that fails some calls. */
  wrap?: (model: ModelProvider) => ModelProvider;
}

/** A provider the test made itself (held, routed by task…) and checks itself. */
export interface ProviderRun<T> extends RunOptions<T> {
  model: ModelProvider;
}

export interface ScriptedRunResult<T> {
  result: AgentResult;
  workflowId: string;
  observed: T;
  /** Calls of the default test tools; empty when `tools` replaced them. */
  log: ToolLog;
}

/**
 * Runs one agent to its end on a fresh harness (its own Worker and task queue on the suite's dev
 * server), served by the scripted provider.
 */
export async function runScripted<T = undefined>(
  env: TestEnv,
  run: ScriptRun<T>,
): Promise<ScriptedRunResult<T> & { model: ScriptedModel }>;
export async function runScripted<T = undefined>(env: TestEnv, run: ProviderRun<T>): Promise<ScriptedRunResult<T>>;
export async function runScripted<T>(
  env: TestEnv,
  run: ScriptRun<T> | ProviderRun<T>,
): Promise<ScriptedRunResult<T> & { model?: ScriptedModel }> {
  const model = 'script' in run ? createScriptedModel(run.script) : undefined;
  const provider = 'script' in run ? (run.wrap ? run.wrap(model!) : model!) : run.model;
  const defaults = testTools();
  const h = await createHarness(env, {
    tools: run.tools ?? defaults.tools,
    models: { ...run.models, scripted: provider },
    ...(run.agents ? { agents: run.agents } : {}),
    ...(run.guardrails ? { guardrails: run.guardrails } : {}),
  });
  const ran = await h.worker.runUntil(async () => {
    const handle = await h.agents.start({ model: SCRIPTED_MODEL, ...run.input });
    const observed = (run.during ? await run.during({ h, workflowId: handle.workflowId }) : undefined) as T;
    return { result: await handle.result(), workflowId: handle.workflowId, observed, log: defaults.log };
  });
  if (!model) return ran;
  model.verify();
  return { ...ran, model };
}
