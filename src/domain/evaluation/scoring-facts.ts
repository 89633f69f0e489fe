import { z } from 'zod';
import type { AgentResult } from '../run/agent-result';
import { AnswerGrounding, MAX_CHECKED_CLAIMS, MAX_CLAIM_TEXT_CHARS } from '../chain/answer-grounding';
import { isSupported } from '../chain/claim-support';
import { TerminationReason } from '../run/termination';
import { totalTokens } from '../model/usage';
import { MAX_CONSENSUS_MODELS } from '../model/llm-answer';

/** Longest answer text the scorers see; longer answers are cut (and say so). */
export const MAX_FACTS_ANSWER_CHARS = 32_000;

/** At most this many task choices are kept for the scorers: the first ones, where the choice that matters is. */
export const MAX_FACT_TASK_CHOICES = 100;
/** Consensus results kept per run for scoring (the first one is scored). */
export const MAX_FACT_CONSENSUS = 20;

/** One tool call as scorers see it: the model's own calls, in the order it made them. */
export const FactToolCall = z.object({
  tool: z.string(),
  toolType: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** A thought came with the model turn that asked for this call (seed 001: every action has a reason). */
  withThought: z.boolean(),
  /** Undefined when the call has no result in the chain (cancelled, or left behind by a long run). */
  success: z.boolean().optional(),
  error: z.string().optional(),
});
export type FactToolCall = z.infer<typeof FactToolCall>;

/** What deterministic scorers read of a run: pure data drawn from its AgentResult. */
export const ScoringFacts = z.object({
  success: z.boolean(),
  terminationReason: TerminationReason,
  finalAnswer: z.string(),
  answerCut: z.boolean(),
  output: z.unknown().optional(),
  /** What stands behind the answer (AgentResult.grounding), when the run judged it. */
  grounding: AnswerGrounding.optional(),
  /** The answer's checked claims (the synthesis step's `claimCheck`), when it had any: how many, how many supported, which not. */
  claims: z
    .object({
      total: z.number().int().nonnegative(),
      supported: z.number().int().nonnegative(),
      unsupported: z.array(z.string().max(MAX_CLAIM_TEXT_CHARS)).max(MAX_CHECKED_CLAIMS),
    })
    .optional(),
  /** The plan's `task_choice` steps, in order (bounded like a plan's tasks): which task started, who chose it, among how many others. */
  taskChoices: z
    .array(
      z.object({
        taskId: z.string().max(64),
        chosenBy: z.enum(['model', 'plan_order']),
        alternatives: z.number().int().nonnegative(),
        refused: z.object({ taskId: z.string().max(64), problem: z.string().max(32) }).optional(),
      }),
    )
    .max(MAX_FACT_TASK_CHOICES)
    .default([]),
  /** The run's consensus results (`ask_model`, mode consensus), in order, bounded: how far the models agreed, and their groups. */
  consensus: z
    .array(
      z.object({
        agreement: z.number().min(0).max(1),
        unanimous: z.boolean(),
        groups: z.array(z.array(z.string().max(64)).max(MAX_CONSENSUS_MODELS)).max(MAX_CONSENSUS_MODELS),
      }),
    )
    .max(MAX_FACT_CONSENSUS)
    .default([]),
  /** Replies the run could not act on (text ReAct format errors). */
  formatErrors: z.number().int().nonnegative(),
  iterations: z.number().int().nonnegative(),
  maxIterations: z.number().int().positive().optional(),
  toolCalls: z.array(FactToolCall),
  /** False when the result's chain no longer holds the run's first steps (a long run); `toolCalls` is then its tail. */
  chainComplete: z.boolean(),
  modelCalls: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
  tokens: z.number().int().nonnegative(),
  latencyMs: z.number().nonnegative(),
});
export type ScoringFacts = z.infer<typeof ScoringFacts>;

/** Tool names of the loop itself, which are how a run ends rather than actions it took. */
export interface LoopToolNames {
  finish: string;
  giveUp: string;
}

/** The facts of one ended run. `toolCalls` leaves out `llm` steps and the finish / give-up tools. */
export function factsOf(result: AgentResult, loopTools: LoopToolNames): ScoringFacts {
  const results = new Map<string, { success: boolean; error?: string }>();
  for (const step of result.chain.steps)
    if (step.type === 'tool_result')
      results.set(step.toolResult.correlationId, {
        success: step.toolResult.success,
        ...(step.toolResult.error !== undefined ? { error: step.toolResult.error } : {}),
      });
  const toolCalls: FactToolCall[] = [];
  // A model turn is its `llm` call and result, then the model's thought, then the calls it asked
  // for. A thinking step after the turn's first call is the loop's (waiting for approval, a
  // stall), as are plans, reflections and people's words: none of them is the model's reason.
  let thoughtThisTurn = false;
  let callsThisTurn = 0;
  for (const step of result.chain.steps) {
    if (
      step.type === 'thinking' &&
      callsThisTurn === 0 &&
      step.purpose === undefined &&
      step.fromPerson === undefined &&
      step.thought.trim() !== ''
    )
      thoughtThisTurn = true;
    if (step.type !== 'tool_call') continue;
    const { toolType, toolName, arguments: args, correlationId } = step.toolCall;
    if (toolType === 'llm') {
      thoughtThisTurn = false;
      callsThisTurn = 0;
      continue;
    }
    // A guardrail's check point is the run's own step, not a call the model made.
    if (toolType === 'guardrail') continue;
    callsThisTurn += 1;
    if (toolName === loopTools.finish || toolName === loopTools.giveUp) continue;
    const outcome = results.get(correlationId);
    toolCalls.push({ tool: toolName, toolType, arguments: args, withThought: thoughtThisTurn, ...(outcome ?? {}) });
  }
  const answer = result.finalAnswer;
  const claims = claimsOf(result);
  return {
    success: result.success,
    terminationReason: result.terminationReason,
    finalAnswer: answer.length > MAX_FACTS_ANSWER_CHARS ? answer.slice(0, MAX_FACTS_ANSWER_CHARS) : answer,
    answerCut: answer.length > MAX_FACTS_ANSWER_CHARS,
    ...(result.output !== undefined ? { output: result.output } : {}),
    ...(result.grounding !== undefined ? { grounding: result.grounding } : {}),
    ...(claims ? { claims } : {}),
    taskChoices: taskChoicesOf(result),
    consensus: consensusOf(result),
    formatErrors: result.formatErrors,
    iterations: result.iterations,
    ...(result.maxIterations !== undefined ? { maxIterations: result.maxIterations } : {}),
    toolCalls,
    chainComplete: result.chain.earlier === undefined,
    modelCalls: result.modelCalls,
    costUsd: result.costUsd,
    tokens: totalTokens(result.usage),
    latencyMs: result.executionTimeMs,
  };
}

/** The synthesis step's claim check, counted; undefined when the answer had no checked claim. */
function claimsOf(result: AgentResult): ScoringFacts['claims'] {
  const check = result.chain.steps
    .flatMap((s) => (s.type === 'synthesis' && s.synthesis.claimCheck ? [s.synthesis.claimCheck] : []))
    .at(-1);
  // A claim nothing could check is no evidence either way: the proxy counts only checked ones.
  const checked = check?.claims.filter((c) => !c.unchecked) ?? [];
  if (!check || checked.length === 0) return undefined;
  return {
    total: checked.length,
    supported: check.claims.filter(isSupported).length,
    // The checked claims at fault, contradicted first: what the coherence proxy names.
    unsupported: [...(check.contradicted ?? []), ...check.unsupported].slice(0, MAX_CHECKED_CLAIMS),
  };
}

/** The run's task choices; a choice recorded before the model chose (no `chosenBy`) was plan order's. */
function taskChoicesOf(result: AgentResult): ScoringFacts['taskChoices'] {
  return result.chain.steps
    .flatMap((s) => (s.type === 'thinking' && s.taskChoice ? [s.taskChoice] : []))
    .slice(0, MAX_FACT_TASK_CHOICES)
    .map((c) => ({
      taskId: c.taskId,
      chosenBy: c.chosenBy ?? 'plan_order',
      alternatives: c.alternatives.length,
      ...(c.refused ? { refused: c.refused } : {}),
    }));
}

/** A consensus's recorded result (llm-tool-call.ts), read defensively: anything else is no consensus. */
const RecordedConsensus = z.object({
  agreement: z.number().min(0).max(1),
  unanimous: z.boolean(),
  groups: z.array(z.array(z.string())),
});

/** The run's consensus results, in order: the `llm` tool results that carry an agreement. */
function consensusOf(result: AgentResult): ScoringFacts['consensus'] {
  return result.chain.steps
    .flatMap((s) => {
      if (s.type !== 'tool_result') return [];
      const read = RecordedConsensus.safeParse(s.toolResult.result);
      return read.success ? [read.data] : [];
    })
    .slice(0, MAX_FACT_CONSENSUS)
    .map(({ agreement, unanimous, groups }) => ({
      agreement,
      unanimous,
      groups: groups
        .slice(0, MAX_CONSENSUS_MODELS)
        .map((g) => g.slice(0, MAX_CONSENSUS_MODELS).map((n) => n.slice(0, 64))),
    }));
}
