import {
  ApplicationFailure,
  CancellationScope,
  allHandlersFinished,
  condition,
  continueAsNew,
  isCancellation,
  setHandler,
  sleep,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import { z } from 'zod';
import { AgentInput, AnswerRequest, ApprovalDecision, FailureType, type AgentInputInit, type AgentResult, type AgentStatus, type ToolSpec, type ViewerRole } from '../../shared';
import { parseViewerRole, viewChain } from '../../shared/chain-view';
import { activities } from '../activity-proxies';
import { AgentRun } from '../loop/react-loop';
import { ApprovalGate } from '../people/approval-gate';
import { carryOver } from './carry-over';
import { delegationPath, levelsBelow } from '../delegation/delegation-guard';
import { ChainBuilder } from '../core/chain-builder';
import { failureMessage } from '../core/failure-message';
import { answerUpdate, approveToolCallUpdate, cancelSignal, chainQuery, resolveStallUpdate, statusQuery, steerSignal, subAgentApprovalsSignal, type StallDecision } from '../messages';
import { modelRefusal } from './model-allow-list';
import { createPublisher } from './publish-progress';
import { QuestionDesk } from '../people/question-desk';
import { ContinueAsNewRequested, type RunOutcome } from '../loop/run-hooks';
import { RunState } from '../core/run-state';
import { runStatus } from './run-status';
import { SteeringInbox } from '../people/steering-inbox';
import { splitToolNames, withSubAgents } from '../delegation/sub-agent-tools';
import { SubAgentTree } from '../delegation/sub-agent-tree';
import type { StopPredicate } from '../loop/stop-conditions';
import { nativeStrategy, nextReactCallNumber, reactTextStrategy } from '../loop/strategies';

export interface RunAgentOptions {
  /** Custom stop predicates, checked after every iteration; the first that holds ends the run as `custom`. */
  stopWhen?: readonly StopPredicate[];
}

/** Checks an update's payload against its schema; the validator's error is what the caller reads. */
function parseMessage<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`Malformed ${what}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** After a cancel or timeout, how long in-flight work may take to acknowledge before the run ends without it. */
const SETTLE_MS = 1_500;

/**
 * The agent loop as a function any workflow can call: `agentWorkflow` is just this, and users
 * wrap it to add their own stop predicates. Handles queries, the `cancel` signal, Temporal
 * cancellation, the run timeout and continue-as-new (into the calling workflow type, which must
 * take the AgentInput as its first argument).
 */
export async function runAgent(rawInput: AgentInputInit, options: RunAgentOptions = {}): Promise<AgentResult> {
  const parsed = AgentInput.safeParse(rawInput);
  if (!parsed.success) {
    throw ApplicationFailure.create({ type: FailureType.InvalidAgentInput, message: parsed.error.message, nonRetryable: true });
  }
  const input = parsed.data;
  const { workflowId, runId } = workflowInfo();
  const clock = { now: () => new Date().toISOString(), newId: () => uuid4() };
  const carried = input.continued;
  const chain = carried ? new ChainBuilder(clock, { restore: carried.chain }) : new ChainBuilder(clock, { chainId: workflowId, agentName: input.agentName, task: input.task });
  const state = carried ? RunState.restore(carried) : new RunState(input.model.model, [{ role: 'user', content: [{ type: 'text', text: input.task }] }], Date.now());
  chain.iteration = state.iteration;
  const loopScope = new CancellationScope();
  let interrupt: (by: 'timeout' | 'cancelled', why: string) => void = () => undefined;
  const interrupted = new Promise<{ by: 'timeout' | 'cancelled'; why: string }>((resolve) => {
    interrupt = (by, why) => resolve({ by, why });
  });
  let stallQuestion: string | undefined;
  let stallDecision: StallDecision | undefined;
  const gate = new ApprovalGate(chain, runId, clock.now);
  const desk = new QuestionDesk();
  const inbox = new SteeringInbox(carried?.steering);

  const tree = new SubAgentTree(chain, delegationPath(input, workflowId));
  const status = (): AgentStatus => runStatus({ input, chain, state, gate, desk, inbox, tree, stallQuestion });
  const published = createPublisher(chain, status);
  // Every status change also reaches the parent, which lists this tree's pending approvals.
  const publish = { details: published.details, all: (value?: string) => (published.all(value), tree.reportUp(gate.pending())) };
  // A role the query does not know fails the query (not the run) with the list of valid roles.
  setHandler(chainQuery, (role: ViewerRole = 'developer') => viewChain(chain.snapshot(), parseViewerRole(role)));
  setHandler(statusQuery, status);
  setHandler(cancelSignal, ({ reason, by } = {}) => {
    if (state.cancelRequested !== undefined) return;
    state.cancelRequested = `${reason ?? 'no reason given'}${by ? `, by ${by}` : ''}`;
    chain.thinking(`Cancel requested (${state.cancelRequested}); finishing the current step, then summarising.`, { level: 'full' }, { kind: 'cancel', by: by ?? 'unknown' });
    // Sub-agents hear why, so their own chains say it; the scope's cancel then stops them.
    tree.forward(cancelSignal, { reason: `the parent run was cancelled: ${reason ?? 'no reason given'}`, ...(by ? { by } : {}) });
    publish.details();
    // In-flight work gets a grace period, then is cancelled like a Temporal cancel.
    void sleep(input.cancelGraceMs).then(
      () => {
        interrupt('cancelled', `The run was cancelled (${state.cancelRequested}).`);
        loopScope.cancel();
      },
      () => undefined,
    );
  });
  setHandler(
    resolveStallUpdate,
    (decision) => {
      stallDecision = decision;
      return `The run will ${decision.continue ? 'continue' : 'stop'}.`;
    },
    {
      validator: (_decision: StallDecision) => {
        if (stallQuestion === undefined || stallDecision !== undefined) throw new Error('This run is not waiting for a "continue?" decision.');
      },
    },
  );

  setHandler(
    approveToolCallUpdate,
    (raw) => {
      const decision = ApprovalDecision.parse(raw);
      const record = gate.decide(decision);
      const roles = decision.by.roles.length ? ` (${decision.by.roles.join(', ')})` : '';
      const note = record.note ? `: ${record.note}` : '';
      chain.thinking(`${decision.approved ? 'Approved' : 'Rejected'} by ${decision.by.id}${roles}: ${record.toolName} (call ${record.callId})${note}`, { level: 'full' }, { kind: 'approval', by: decision.by.id });
      publish.details();
      return record;
    },
    { validator: (raw) => gate.check(parseMessage(ApprovalDecision, raw, 'decision')) },
  );
  setHandler(subAgentApprovalsSignal, ({ workflowId: child, pending }) => {
    if (tree.receive(child, pending)) publish.all();
  });
  setHandler(steerSignal, (request) => {
    inbox.receive(request);
    publish.details();
  });
  setHandler(answerUpdate, (request) => {
    desk.receive(request);
    return 'Answer received; the run goes on.';
  }, { validator: (request) => desk.check(parseMessage(AnswerRequest, request, 'answer')) });

  // Temporal's own cancel (handle.cancel(), the Web UI) and the run's deadline both interrupt the loop.
  CancellationScope.current().cancelRequested.catch(() =>
    interrupt('cancelled', state.cancelRequested !== undefined ? `The run was cancelled (${state.cancelRequested}).` : 'The run was cancelled through Temporal.'),
  );
  if (input.runTimeoutMs !== undefined) {
    const left = state.startedAtMs + input.runTimeoutMs - Date.now();
    void sleep(Math.max(1, left)).then(
      () => {
        interrupt('timeout', `The run reached its time limit of ${input.runTimeoutMs} ms.`);
        loopScope.cancel();
      },
      () => undefined,
    );
  }

  let run: AgentRun | undefined;
  let tools: ToolSpec[] = carried?.tools ?? [];
  const loop = async (): Promise<RunOutcome> => {
    const refused = modelRefusal(input);
    if (refused) {
      chain.thinking(`Refused: ${refused}`, { level: 'full' });
      return { reason: 'error', answer: '', error: refused };
    }
    const tenant = input.caller?.tenant;
    // Sub-agents run inside their root's slot; their model calls still lease the tenant's tokens.
    if (tenant && !carried && !input.delegation) {
      const slot = await activities.acquireTenantRun({ tenant, workflowId });
      if (!slot.granted) {
        chain.thinking(`Refused: ${slot.reason}`, { level: 'full' });
        return { reason: 'error', answer: '', error: slot.reason };
      }
    }
    if (!carried) {
      const names = splitToolNames(input, workflowId);
      tools = withSubAgents(input, await activities.describeTools(names.registered), names.agents);
    }
    const injected = new Map([
      [input.finishToolName, 'finishToolName'],
      [input.giveUpToolName, 'giveUpToolName'],
      ...(input.allowQuestions ? [[input.questionToolName, 'questionToolName'] as const] : []),
      ...(input.planning ? [[input.planning.updateToolName, 'planning.updateToolName'] as const] : []),
    ]);
    const clash = tools.find((t) => injected.has(t.name));
    if (clash) {
      const message = `A registered tool is named "${clash.name}", like an injected tool; set ${injected.get(clash.name)} to another name.`;
      throw ApplicationFailure.create({ type: FailureType.InvalidAgentInput, message, nonRetryable: true });
    }
    const strategy = input.strategy === 'react-text' ? reactTextStrategy(input, tools, nextReactCallNumber(chain.steps)) : nativeStrategy(input, tools);
    run = new AgentRun(input, tools, strategy, chain, state, workflowId, {
      onProgress: (scope) => (scope === 'all' ? publish.all() : publish.details()),
      shouldContinueAsNew: () => {
        const info = workflowInfo();
        const every = input.continueAsNewEvery !== undefined && state.iterationsThisRun >= input.continueAsNewEvery;
        return info.continueAsNewSuggested || info.historySize >= input.continueAsNewAtBytes || every;
      },
      askToContinue: async (question) => {
        stallQuestion = question;
        stallDecision = undefined;
        publish.all();
        const answered = await condition(() => stallDecision !== undefined, input.stallQuestionTimeoutMs);
        stallQuestion = undefined;
        return answered ? stallDecision : undefined;
      },
      stopWhen: options.stopWhen ?? [],
      people: { gate, desk, inbox },
      tree,
    });
    return run.run();
  };

  const settled = loopScope.run(loop).then(
    (outcome) => ({ outcome }),
    (error: unknown) => ({ error }),
  );
  let first = await Promise.race([settled, interrupted]);
  if ('by' in first) {
    // Give in-flight work a moment to acknowledge, so the chain can say what happened to it.
    // Running sub-agents wind down and report first, each level below with its own settle window.
    const settleMs = tree.running().length ? SETTLE_MS * (2 + levelsBelow(input, workflowId)) : SETTLE_MS;
    const late = await CancellationScope.nonCancellable(() => Promise.race([settled, sleep(settleMs).then(() => undefined)]));
    const interruption = first;
    first = late && 'outcome' in late ? late : { outcome: run ? run.interrupted(interruption.by, interruption.why) : { reason: interruption.by, answer: interruption.why } };
  }
  if ('error' in first && first.error instanceof ContinueAsNewRequested) {
    await condition(allHandlersFinished);
    return continueAsNew<(input: AgentInput) => Promise<AgentResult>>({ ...input, continued: carryOver(state, chain.snapshot(), tools, runId, inbox.waiting) });
  }
  let outcome: RunOutcome;
  if ('outcome' in first) outcome = first.outcome;
  else if (isCancellation(first.error)) outcome = { reason: 'cancelled', answer: 'The run was cancelled before it began.' };
  // Anything else ends the run with its chain intact instead of failing the workflow task forever.
  else outcome = { reason: 'error', answer: '', error: failureMessage(first.error) };

  const tenant = input.caller?.tenant;
  if (tenant && !input.delegation) {
    // The slot and unspent leased tokens go back even when the run was cancelled.
    await CancellationScope.nonCancellable(() => activities.releaseTenantRun({ tenant, workflowId, unusedTokens: Math.max(0, Math.floor(state.tenant.allowance)) })).catch(() => undefined);
  }
  chain.setStatus(outcome.reason === 'error' ? 'failed' : 'completed');
  publish.all(outcome.reason);
  return {
    success: outcome.reason === 'success',
    finalAnswer: outcome.answer,
    terminationReason: outcome.reason,
    chain: chain.snapshot(),
    usage: state.usage,
    costUsd: state.costUsd,
    iterations: state.iteration,
    maxIterations: input.maxIterations,
    modelCalls: state.modelCalls,
    toolCalls: state.toolCalls,
    formatErrors: state.formatErrors,
    cachedCalls: state.cachedCalls,
    continuations: state.previousRunIds.length,
    executionTimeMs: Date.now() - state.startedAtMs,
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(state.delegated.runs > 0 ? { delegated: state.delegated } : {}),
    ...(chain.plan ? { plan: chain.plan } : {}),
  };
}
