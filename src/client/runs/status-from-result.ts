import type { AgentResult, AgentStatus } from '../../domain';
import { chainLength } from '../../domain/chain/chain-length';

/**
 * The `status` record of a run that has completed, rebuilt from its result, so that reading an
 * ended run (its tree, its sub-agents) needs no worker to answer a query.
 */
export function statusFromResult(result: AgentResult): AgentStatus {
  const last = result.chain.steps[result.chain.steps.length - 1];
  const plan = result.plan;
  return {
    status: result.chain.status,
    iteration: result.iterations,
    maxIterations: result.maxIterations ?? Math.max(1, result.iterations),
    steps: chainLength(result.chain),
    usage: result.usage,
    costUsd: result.costUsd,
    model: answeringModel(result),
    continuations: result.continuations,
    ...(last ? { lastStep: `${last.stepNumber} ${last.type}` } : {}),
    pendingApprovals: [],
    ...(plan
      ? {
          plan: {
            version: plan.version,
            source: plan.source,
            completed: plan.tasks.filter((t) => t.status === 'completed').length,
            total: plan.tasks.length,
            tasks: plan.tasks.map(({ id, description, status, dependencies }) => ({
              id,
              description,
              status,
              dependencies,
            })),
          },
        }
      : {}),
    subAgents: result.chain.subAgents ?? [],
    ...(result.times ? { times: result.times } : {}),
  };
}

/**
 * The model that last answered (a reply's `model`), as the live status query reports it
 * (`lastModel`); else the last one asked, when none answered.
 */
function answeringModel(result: AgentResult): string {
  const steps = [...result.chain.steps].reverse();
  const reply = steps.find((s) => s.type === 'tool_result' && s.model !== undefined && s.toolResult.success);
  return reply?.model ?? steps.find((s) => s.model !== undefined)?.model ?? 'unknown';
}
