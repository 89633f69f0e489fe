import {
  ApplicationFailure,
  CancellationScope,
  allHandlersFinished,
  condition,
  continueAsNew,
  isCancellation,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import {
  AgentInput,
  FailureType,
  type AgentInputInit,
  type AgentResult,
  type AgentStatus,
  type ContinuedState,
  type ModelMessage,
  type ReasoningChain,
} from '../../domain';
import { MAX_CACHE_BYTES } from '../../domain/run/payload-size';
import { protoKeyProblem } from '../../domain/text/own-value';
import { activities } from '../activity-proxies';
import { createAtRest } from '../core/state/at-rest';
import { ChainBuilder } from '../core/chain/chain-builder';
import { failureMessage } from '../core/failure-message';
import { ContinueAsNewRequested } from '../core/loop-signals';
import { keepLearnings } from '../memory/run-memory';
import { runEventSink } from '../core/chain/run-event-sink';
import type { RunContext } from '../core/state/run-context';
import { RunState } from '../core/state/run-state';
import { delegationPath, levelsBelow } from '../delegation/delegation-guard';
import { SubAgentTree } from '../delegation/sub-agent-tree';
import { contextNote, contextPrompt, hasContext } from '../planning/context-prompt';
import { ReactLoop, type RunOutcome } from '../loop/react-loop';
import type { RunTools } from '../tools/run-tools';
import { SentConversations } from '../core/state/sent-conversations';
import type { StopPredicate } from '../loop/stop-conditions';
import { nativeStrategy, nextReactCallNumber, reactTextStrategy, runObservationMarker } from '../loop/strategies';
import { ApprovalGate } from '../people/approval-gate';
import type { People } from '../people/people';
import { QuestionDesk } from '../people/question-desk';
import { StallQuestion } from '../people/stall-question';
import { BudgetDesk } from '../people/budget-desk';
import { DecisionSignatures } from '../people/decision-signatures';
import { SteeringInbox } from '../people/steering-inbox';
import { agentResult } from './result/agent-result';
import { carryOver, planHandover, withSentConversation } from './handover/carry-over';
import { forkChain, forkNote, forkState } from './fork-start';
import { CARRIED_LIMITS, chainTail, MAX_HELD_STEPS, type ChainHandover } from './handover/chain-tail';
import { keepArchive } from './handover/keep-archive';
import { fitResult, fitsPayload } from './result/fit-result';
import { observationsByReference } from './result/result-observations';
import { registerHandlers } from './handlers';
import { Interrupts } from './interrupts';
import { preflight, type Preflight } from './preflight';
import { createProgress } from './publish-progress';
import { runStatus } from './run-status';

export interface RunAgentOptions {
  /** Custom stop predicates, checked after every iteration; the first that holds ends the run as `custom`. */
  stopWhen?: readonly StopPredicate[];
}

/** The chain's `caller` for a run that names one. */
function chainCaller(input: AgentInput): { caller?: NonNullable<ReasoningChain['caller']> } {
  if (!input.caller) return {};
  const { id, roles, tenant } = input.caller;
  // No empty list: some JSON readers (the temporal CLI's query output) turn [] into null.
  return {
    caller: { id, ...(roles.length ? { roles: [...roles] } : {}), ...(tenant ? { tenant } : {}) } as NonNullable<
      ReasoningChain['caller']
    >,
  };
}

/** The conversation's first message: the goal, then (when the run has one) its context in a block of its own. */
function firstMessage(input: AgentInput): ModelMessage {
  const goal = { type: 'text' as const, text: input.task };
  if (!hasContext(input.context)) return { role: 'user', content: [goal] };
  return { role: 'user', content: [goal, { type: 'text', text: contextPrompt(input.context) }] };
}

/** After a cancel or timeout, how long in-flight work may take to acknowledge before the run ends without it. */
const SETTLE_MS = 1_500;

/**
 * The agent loop as a function any workflow can call: `agentWorkflow` is just this, and users
 * wrap it to add their own stop predicates. Builds the run context once, registers the handlers,
 * runs the preflight and the loop, races them against interrupts, and hands over with
 * continue-as-new (into the calling workflow type, which must take the AgentInput as its first
 * argument) or returns the result.
 */
export async function runAgent(rawInput: AgentInputInit, options: RunAgentOptions = {}): Promise<AgentResult> {
  const { workflowId, runId } = workflowInfo();
  const atRest = createAtRest();
  // Watchers hear of every change through a sink: no command, no history event.
  const events = runEventSink(workflowId, atRest);
  const protoKey = protoKeyProblem(rawInput);
  if (protoKey !== undefined) {
    events.end('failed', { status: 'failed', stepNumber: 0 });
    throw ApplicationFailure.create({ type: FailureType.InvalidAgentInput, message: protoKey, nonRetryable: true });
  }
  const parsed = AgentInput.safeParse(rawInput);
  if (!parsed.success) {
    events.end('failed', { status: 'failed', stepNumber: 0 });
    throw ApplicationFailure.create({
      type: FailureType.InvalidAgentInput,
      message: parsed.error.message,
      nonRetryable: true,
    });
  }
  // The archive of steps the last handover left behind is for readers only: not kept in memory.
  const { archive: _archive, ...continued } = parsed.data.continued ?? {};
  // A fork's starting state is read once, here: never carried into a continue-as-new.
  const { fork: forkInput, ...unforked } = parsed.data;
  const given: AgentInput = parsed.data.continued ? { ...unforked, continued: continued as ContinuedState } : unforked;
  // A run of a named agent is named after it, whatever `agentName` said.
  const agentId = given.definition?.id ?? given.agent;
  const input: AgentInput = agentId === undefined ? given : { ...given, agentName: agentId };
  const fork = parsed.data.continued ? undefined : forkInput;
  const clock = { now: () => new Date().toISOString(), newId: () => uuid4() };
  const carried = input.continued;
  const chain = carried
    ? new ChainBuilder(clock, { restore: carried.chain }, events.observe)
    : fork
      ? new ChainBuilder(
          clock,
          { restore: { ...forkChain(fork, workflowId, input, clock.now()), ...chainCaller(input) } },
          events.observe,
        )
      : new ChainBuilder(
          clock,
          { chainId: workflowId, agentName: input.agentName, task: input.task, ...chainCaller(input) },
          events.observe,
        );
  const state = carried
    ? RunState.restore(carried)
    : fork
      ? RunState.restore(forkState(fork, input, Date.now()))
      : new RunState(input.model.model, [firstMessage(input)], Date.now());
  chain.iteration = state.iteration;
  if (fork) chain.thinking(forkNote(fork), { level: 'full' });
  // A new run's context is its first step; a continued run carries it in its chain already.
  else if (!carried && hasContext(input.context))
    chain.note('context', contextNote(input.context), { level: input.visibility });
  state.limitCacheBytes(MAX_CACHE_BYTES);
  const interrupts = new Interrupts();
  const people: People = {
    gate: new ApprovalGate(chain, runId, clock.now),
    desk: new QuestionDesk(),
    inbox: new SteeringInbox(carried?.steering ?? fork?.steering, carried?.steeringRefused),
    stall: new StallQuestion(),
    budget: new BudgetDesk(),
    signatures: new DecisionSignatures(input.signedDecisions, workflowId, carried?.usedDecisions),
  };
  const tree = new SubAgentTree(chain, delegationPath(input, workflowId));
  const status = (): AgentStatus => runStatus(ctx, people, tree);
  const shown = createProgress(chain, status);
  const ctx: RunContext = {
    input,
    workflowId,
    chain,
    state,
    // Every published change also reaches the parent, which lists this tree's pending approvals.
    progress: {
      details: shown.details,
      publish: (value) => (shown.publish(value), tree.reportUp(people.gate.pending())),
    },
    conversations: new SentConversations(),
    resultsInHistory: new Set(),
  };
  // The first call after a handover names the carried tool results, and builds on the conversation the last call sent.
  if (carried) ctx.conversations.carriedOver(state.messages);
  if (carried?.sentConversation) ctx.conversations.continueFrom(state.messages, carried.sentConversation);
  registerHandlers(ctx, people, tree, interrupts, status);
  interrupts.onTemporalCancel(() =>
    state.cancelRequested !== undefined
      ? `The run was cancelled (${state.cancelRequested}).`
      : 'The run was cancelled through Temporal.',
  );
  if (input.runTimeoutMs !== undefined) interrupts.startDeadline(input.runTimeoutMs, state.startedAtMs);

  let loop: ReactLoop | undefined;
  let tools: RunTools | undefined;
  const startLoop = (checked: Preflight): Promise<RunOutcome> => {
    if ('refused' in checked) return Promise.resolve(checked.refused);
    const runTools = checked.tools;
    tools = runTools;
    // The preflight may have replaced the input with the agent definition's (resolve-agent.ts).
    const textStrategy = () =>
      reactTextStrategy(
        ctx.input,
        runTools.specs,
        Math.max(nextReactCallNumber(chain.steps), (chain.earlier?.lastReactCall ?? 0) + 1),
        runObservationMarker(),
      );
    const native = ctx.input.strategy !== 'react-text';
    loop = new ReactLoop(ctx, {
      tools: runTools,
      strategy: native ? nativeStrategy(ctx.input, runTools) : textStrategy(),
      textStrategy: native ? textStrategy : undefined,
      people,
      tree,
      stopWhen: options.stopWhen ?? [],
      shouldContinueAsNew: () => shouldContinueAsNew(input, state, chain),
    });
    return loop.run();
  };
  // Not async, nor is what it runs: most runs' preflight waits for nothing, and then nothing is
  // awaited (each async layer and await is a promise the SDK traces).
  interrupts.watch(
    interrupts.loopScope.run(() => {
      const pending = preflight(ctx, carried?.tools);
      return pending instanceof Promise ? pending.then(startLoop) : startLoop(pending);
    }),
  );
  // Running sub-agents wind down and report first, each level below with its own settle window.
  const settleMs = () => (tree.running().length ? SETTLE_MS * (2 + levelsBelow(input, workflowId)) : SETTLE_MS);
  const first = await interrupts.first;
  const ended =
    'by' in first
      ? await interrupts.settleAfter(first, settleMs, ({ by, why }) =>
          loop ? loop.interrupted(by, why) : { reason: by, answer: why },
        )
      : first;
  let refused: RunOutcome | undefined;
  if ('error' in ended && ended.error instanceof ContinueAsNewRequested) {
    // A handover before any reply described the tools carries them described (rare: a first call still pending).
    await tools?.describeNow();
    await condition(allHandlersFinished);
    // Long runs carry a bounded tail of their chain; the steps left behind are recorded once.
    let held: ChainHandover = chainTail(chain.snapshot(), runId, CARRIED_LIMITS);
    if (held.archive && (await keepArchive(held.archive, runId))) {
      // Recorded once, here; the handover is planned after it, with what messages brought meanwhile.
      await condition(allHandlersFinished);
      held = { chain: chainTail(chain.snapshot(), runId, CARRIED_LIMITS, held.archive.steps.length).chain };
    }
    const handover = planHandover(
      ctx.input,
      (level) =>
        withSentConversation(
          carryOver(
            state,
            held.chain,
            tools?.specs ?? carried?.tools ?? [],
            runId,
            people.inbox,
            level,
            held.archive,
            people.signatures.used,
          ),
          ctx.conversations,
        ),
      {
        iterationsThisRun: state.iterationsThisRun,
        historyBytes: workflowInfo().historySize,
      },
    );
    if (handover.kind === 'continue') {
      events.end('continued', chain.position());
      return continueAsNew<(input: AgentInput) => Promise<AgentResult>>(handover.input);
    }
    refused = { reason: 'error', answer: '', error: handover.error };
  }
  let outcome: RunOutcome;
  if (refused) outcome = refused;
  else if ('outcome' in ended) outcome = ended.outcome;
  else if (isCancellation(ended.error))
    outcome = { reason: 'cancelled', answer: 'The run was cancelled before it began.' };
  // Anything else ends the run with its chain intact instead of failing the workflow task forever.
  else outcome = { reason: 'error', answer: '', error: failureMessage(ended.error) };

  // Memory (planning.memory): this run's learnings are kept once, when it really ends (not at
  // continue-as-new), even when it was cancelled; failing to keep them does not change the run's outcome.
  if (ctx.input.planning?.memory)
    await CancellationScope.nonCancellable(() => keepLearnings(ctx, chain.plan?.learnings ?? [])).catch(
      () => undefined,
    );
  const tenant = input.caller?.tenant;
  if (tenant && !input.delegation) {
    // The slot and unspent leased tokens go back even when the run was cancelled.
    const unusedTokens = Math.max(0, Math.floor(state.tenantTokens.allowance));
    const { calls, usd } = state.tenantTokens;
    // Calls and USD only for tenants with those limits: other runs release what they always did.
    const rates = {
      ...(calls !== undefined ? { unusedCalls: Math.max(0, state.tenantCalls(Date.now())) } : {}),
      ...(usd !== undefined && usd > 0 ? { unusedUsd: usd } : {}),
      ...(usd !== undefined && usd < 0 ? { overspentUsd: -usd } : {}),
    };
    await CancellationScope.nonCancellable(() =>
      activities.releaseTenantRun({ tenant, workflowId, unusedTokens, ...rates }),
    ).catch(() => undefined);
  }
  chain.setStatus(outcome.reason === 'error' ? 'failed' : 'completed');
  ctx.progress.publish(outcome.reason);
  const whole = agentResult(ctx, outcome);
  events.end(
    outcome.reason === 'cancelled' ? 'cancelled' : outcome.reason === 'error' ? 'failed' : 'completed',
    chain.position(),
  );
  // Long observations this run's history holds already are named, not recorded a second time.
  const result = observationsByReference(whole, runId, ctx.resultsInHistory);
  return fitsPayload(result) ? result : fitResult(result, runId);
}

/**
 * Hand over to a fresh Temporal run when the server suggests it, the history passes its size
 * limit, every N iterations, or when the run holds MAX_HELD_STEPS steps (so what a handover
 * leaves behind stays small; histories recorded before that rule never reach its marker).
 */
function shouldContinueAsNew(input: AgentInput, state: RunState, chain: ChainBuilder): boolean {
  const info = workflowInfo();
  const every = input.continueAsNewEvery !== undefined && state.iterationsThisRun >= input.continueAsNewEvery;
  if (info.continueAsNewSuggested || info.historySize >= input.continueAsNewAtBytes || every) return true;
  return chain.stepCount - (chain.earlier?.throughStep ?? 0) >= MAX_HELD_STEPS;
}
