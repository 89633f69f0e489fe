import {
  ApplicationFailure,
  isCancellation,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import {
  AgentInput,
  CostAttribute,
  FailureType,
  IterationAttribute,
  ModelAttribute,
  StatusAttribute,
  TokensAttribute,
  renderChainMarkdown,
  totalTokens,
  zeroUsage,
  type AgentResult,
  type AgentStatus,
} from '../shared';
import { activities } from './activity-proxies';
import { AgentRun, type RunOutcome } from './agent-run';
import { ChainBuilder } from './chain-builder';
import { failureMessage } from './failure-message';
import { nativeStrategy, reactTextStrategy } from './strategies';
import { chainQuery, statusQuery } from './messages';

/** A durable ReAct agent. Deterministic: time and ids come from the workflow, all I/O from activities. */
export async function agentWorkflow(rawInput: AgentInput): Promise<AgentResult> {
  const parsed = AgentInput.safeParse(rawInput);
  if (!parsed.success) {
    throw ApplicationFailure.create({ type: FailureType.InvalidAgentInput, message: parsed.error.message, nonRetryable: true });
  }
  const input = parsed.data;
  const startedMs = Date.now();
  const { workflowId } = workflowInfo();
  const chain = new ChainBuilder(
    { now: () => new Date().toISOString(), newId: () => uuid4() },
    { chainId: workflowId, agentName: input.agentName, task: input.task },
  );
  let run: AgentRun | undefined;

  const status = (): AgentStatus => {
    const last = chain.steps[chain.steps.length - 1];
    return {
      status: chain.snapshot().status,
      iteration: run?.state.iteration ?? 0,
      maxIterations: input.maxIterations,
      steps: chain.steps.length,
      usage: run?.state.usage ?? zeroUsage(),
      costUsd: run?.state.costUsd ?? 0,
      model: run?.state.lastModel ?? input.model.model,
      ...(last ? { lastStep: `${last.stepNumber} ${last.type}` } : {}),
    };
  };
  setHandler(chainQuery, () => chain.snapshot());
  setHandler(statusQuery, status);

  const showDetails = (): void => setCurrentDetails(renderChainMarkdown(chain.snapshot()));
  const publish = (statusValue: string): void => {
    const s = status();
    upsertSearchAttributes([
      { key: StatusAttribute, value: statusValue },
      { key: IterationAttribute, value: s.iteration },
      { key: TokensAttribute, value: totalTokens(s.usage) },
      { key: CostAttribute, value: s.costUsd },
      { key: ModelAttribute, value: s.model },
    ]);
    showDetails();
  };

  let outcome: RunOutcome;
  try {
    const tools = await activities.describeTools(input.tools);
    if (tools.some((t) => t.name === input.finishToolName)) {
      const message = `A registered tool is named "${input.finishToolName}", like the finish tool; set finishToolName to another name.`;
      throw ApplicationFailure.create({ type: FailureType.InvalidAgentInput, message, nonRetryable: true });
    }
    const strategy = input.strategy === 'react-text' ? reactTextStrategy(input, tools) : nativeStrategy(input, tools);
    run = new AgentRun(input, tools, strategy, chain, workflowId, (scope) =>
      scope === 'all' ? publish(chain.snapshot().status) : showDetails(),
    );
    outcome = await run.run();
  } catch (err) {
    if (isCancellation(err)) throw err;
    // Anything else ends the run with its chain intact instead of failing the workflow task forever.
    outcome = { reason: 'error', answer: '', error: failureMessage(err) };
  }

  const success = outcome.reason === 'success';
  chain.setStatus(outcome.reason === 'error' ? 'failed' : 'completed');
  publish(outcome.reason);
  return {
    success,
    finalAnswer: outcome.answer,
    terminationReason: outcome.reason,
    chain: chain.snapshot(),
    usage: run?.state.usage ?? zeroUsage(),
    costUsd: run?.state.costUsd ?? 0,
    iterations: run?.state.iteration ?? 0,
    modelCalls: run?.state.modelCalls ?? 0,
    toolCalls: run?.state.toolCalls ?? 0,
    formatErrors: run?.state.formatErrors ?? 0,
    executionTimeMs: Date.now() - startedMs,
    ...(outcome.error ? { error: outcome.error } : {}),
  };
}
