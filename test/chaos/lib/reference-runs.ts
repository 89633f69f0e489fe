import { createAnthropicProvider } from '../../../src/activities/models/anthropic/anthropic-provider';
import type { AgentResult } from '../../../src/domain';
import { startFakeMessagesServer } from '../../../src/testing';
import { createHarness, type TestEnv } from '../../helpers/temporal-env';
import { createChaosModel, type ModelRequestLog } from './chaos-model';
import { chaosAgentInput, type RunPlan } from './chaos-plan';
import { loadChaosTools } from './chaos-tools-module';
import { startFakeExternalService } from './fake-external-service';

/** One plan's undisturbed run: its result, and what each of its model calls received. */
export interface ReferenceRun {
  result: AgentResult;
  modelRequests: readonly ModelRequestLog[];
}

/**
 * The undisturbed run of every plan: the same tools, fake model and provider on an in-process
 * worker that nobody kills (and that replays every task, so it is a strict reference).
 */
export async function runReferences(
  env: TestEnv,
  plans: readonly RunPlan[],
  toolsFile: string,
): Promise<Map<string, ReferenceRun>> {
  const model = createChaosModel(new Map(plans.map((p) => [p.label, p])));
  const fake = await startFakeMessagesServer({ script: Array.from({ length: 10_000 }, () => model.entry) });
  const service = await startFakeExternalService();
  try {
    const harness = await createHarness(env, {
      tools: loadChaosTools(toolsFile, service.url),
      models: { anthropic: createAnthropicProvider({ apiKey: 'test-key', baseURL: fake.baseUrl }) },
    });
    const results = await harness.worker.runUntil(
      Promise.all(plans.map(async (plan) => (await harness.agents.start(chaosAgentInput(plan))).result())),
    );
    if (fake.errors.length > 0 || service.errors.length > 0)
      throw new Error([...fake.errors, ...service.errors].join('\n'));
    return new Map(
      plans.map((plan, i) => [
        plan.label,
        { result: results[i]!, modelRequests: model.requests.filter((r) => r.run === plan.label) },
      ]),
    );
  } finally {
    await fake.close();
    await service.close();
  }
}
