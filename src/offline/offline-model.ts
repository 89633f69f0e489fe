import { ApplicationFailure } from '@temporalio/common';
import type { ModelCallHooks, ModelProvider } from '../domain/model/model-provider';
import { FailureType, zeroUsage, type AssistantBlock, type ModelReply, type ModelRequest } from '../domain';
import { plannerSystem } from '../workflows/planning/plans/plan-prompts';
import { goalCheckSystem, observerSystem } from '../workflows/planning/verdicts/verdict-prompts';
import { contextSummarySystem } from '../domain/model/context-summary';
import { offlineContextSummary } from './offline-context-summary';
import { offlineBranchJudgeReply } from './offline-branch-judge';
import { offlineClaimJudgeReply } from './offline-claim-judge';
import { claimJudgeSystem } from '../workflows/planning/verdicts/claim-judge-prompt';
import { branchJudgeSystem } from '../workflows/branching/branch-judge-prompt';
import { offlinePlanReply } from './offline-plan';
import { offlineGoalCheckReply, offlineObserverReply } from './offline-verdicts';
import { clip, describeOutcome, OFFLINE_MARK } from './offline-summary';
import { nextMove } from './offline-turn';
import type { Move } from './move';
import { readRequest } from './read-request';
import { weatherDemoTurn } from '../demo/offline-weather-model';

/** A turn for a special run (the weather demo's script); undefined leaves the request to the general rules. */
export type OfflineSpecialist = (request: ModelRequest) => AssistantBlock[] | undefined;

/**
 * The specialists every door's offline model has, the library's default included, so one task
 * gets one answer from the CLI, /v1, A2A, AG-UI, MCP and a worker of the user's own.
 */
const DEFAULT_SPECIALISTS: readonly OfflineSpecialist[] = [weatherDemoTurn];

/** The name the offline model answers under, whatever model the run asked for. */
export const OFFLINE_MODEL_NAME = 'offline-model';

/**
 * The model that serves runs when no API key is set: deterministic, local, free. It reads the
 * task and the offered tools' names, descriptions and JSON schemas, calls the tools that fit with
 * schema-valid arguments, asks when allowed, follows a plan, and finishes with the tools' results
 * quoted, or gives up with the reason; answers and reasons start with "[offline model]".
 * The rules: offline-turn.ts (moves), tool-relevance.ts (which tools), derive-arguments.ts
 * (arguments), offline-plan.ts (plans). `specialists` answer first when they recognise a request.
 */
export function createOfflineModel(specialists: readonly OfflineSpecialist[] = DEFAULT_SPECIALISTS): ModelProvider {
  return {
    name: 'offline',
    async complete(request: ModelRequest, signal: AbortSignal, hooks?: ModelCallHooks): Promise<ModelReply> {
      if (signal.aborted) throw signal.reason;
      const started = Date.now();
      let content: AssistantBlock[];
      try {
        content =
          specialists.reduce<AssistantBlock[] | undefined>((found, s) => found ?? s(request), undefined) ??
          offlineContent(request);
      } catch (err) {
        // A bug in the rules would fail the same way on every retry: the call fails for good, typed.
        const message = `The offline model could not read this request: ${err instanceof Error ? err.message : String(err)}`;
        throw ApplicationFailure.create({ type: FailureType.ModelBadRequest, message, nonRetryable: true });
      }
      const text = content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
      if (text) hooks?.onTextDelta?.(text);
      return {
        content,
        stopReason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
        // The model that answered: the chain and `status` say so, not the Claude model the run asked for.
        model: OFFLINE_MODEL_NAME,
        // Rough counts (4 characters a token), so budgets and views behave as with a real model; it costs nothing.
        usage: {
          ...zeroUsage(),
          inputTokens: estimateTokens([request.system, request.messages, request.tools]),
          outputTokens: estimateTokens(content),
        },
        costUsd: 0,
        durationMs: Date.now() - started,
      };
    },
  };
}

const estimateTokens = (value: unknown): number => Math.ceil(JSON.stringify(value).length / 4);

/** The reply to one request by the general rules: a plan, a tool-less text, or the loop's next move. */
export function offlineContent(request: ModelRequest): AssistantBlock[] {
  const firstText = request.messages[0]?.content.find((b) => b.type === 'text');
  const prompt = firstText?.type === 'text' ? firstText.text : '';
  if (request.system === plannerSystem()) return [{ type: 'text', text: offlinePlanReply(prompt) }];
  if (request.system === observerSystem()) return [{ type: 'text', text: offlineObserverReply(prompt) }];
  if (request.system === goalCheckSystem()) return [{ type: 'text', text: offlineGoalCheckReply(prompt) }];
  if (request.system === contextSummarySystem()) return [{ type: 'text', text: offlineContextSummary(prompt) }];
  if (request.system === branchJudgeSystem()) return [{ type: 'text', text: offlineBranchJudgeReply(prompt) }];
  if (request.system === claimJudgeSystem()) return [{ type: 'text', text: offlineClaimJudgeReply(prompt) }];
  if (request.toolChoice === 'none' || request.tools.length === 0) return [{ type: 'text', text: textOnly(request) }];
  const view = readRequest(request);
  return blocks(nextMove(view), view.calls.length);
}

/** Replies where no tool may be called: a reflection, a condensed observation, the loop's last word before it stops. */
function textOnly(request: ModelRequest): string {
  const view = readRequest(request);
  const last = view.notes[view.notes.length - 1] ?? view.task;
  if (/^You condense tool output/.test(request.system)) {
    return clip(view.task.replace(/^[\s\S]*?to condense to under \d+ characters:\n\n/, ''), request.maxTokens * 4);
  }
  const own = new Set(view.tools.map((t) => t.name));
  const observed = view.calls.filter((c) => c.result && own.has(c.name)).map(describeOutcome);
  const sofar = observed.length > 0 ? `So far: ${observed.join('; ')}.` : 'No tool has returned anything yet.';
  if (/Pause and reflect/.test(last))
    return `${OFFLINE_MARK} Reflection: ${observed.length} tool call${observed.length === 1 ? '' : 's'} so far. ${sofar}`;
  return `${OFFLINE_MARK} Stopped before finishing. ${sofar}`;
}

/** A move as reply blocks; call ids are numbered after the conversation's calls, so they are unique and replay the same. */
function blocks(move: Move, callsSoFar: number): AssistantBlock[] {
  return [
    { type: 'text', text: move.text },
    ...move.calls.map((c, i): AssistantBlock => ({
      type: 'tool_use',
      id: `toolu_offline_${callsSoFar + i + 1}`,
      name: c.name,
      input: c.input,
    })),
  ];
}
