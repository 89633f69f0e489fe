import { z } from 'zod';
import { canonicalJson } from '../approval/arguments-hash';
import { ChainStatus, type ReasoningChain } from '../chain/chain';
import { TerminationReason } from '../run/termination';
import { totalTokens } from '../model/usage';

/** One call an iteration made (never a model call or a guardrail check): its tool, arguments and what came back, as the view shows them. */
export const ComparedCall = z.object({
  tool: z.string(),
  /** The arguments as canonical JSON (keys sorted), so equal arguments compare equal. */
  arguments: z.string(),
  /** The result as canonical JSON, or the error; absent while the call runs. */
  result: z.string().optional(),
  failed: z.boolean().optional(),
});
export type ComparedCall = z.infer<typeof ComparedCall>;

/** One iteration of one run, as a comparison reads it; no cost or tokens in a view without spend. */
export const IterationFacts = z.object({
  iteration: z.number().int().nonnegative(),
  /** What the model thought before acting (not the loop's own notes). */
  thoughts: z.array(z.string()),
  calls: z.array(ComparedCall),
  costUsd: z.number().nonnegative().optional(),
  tokens: z.number().nonnegative().optional(),
  /** The models that answered this iteration's model calls, in order. */
  models: z.array(z.string()),
});
export type IterationFacts = z.infer<typeof IterationFacts>;

/** What differs in one iteration; `missing`: only one run has it. */
export const Difference = z.enum(['missing', 'thought', 'calls', 'arguments', 'results', 'model', 'cost']);
export type Difference = z.infer<typeof Difference>;

export const IterationComparison = z.object({
  iteration: z.number().int().nonnegative(),
  a: IterationFacts.optional(),
  b: IterationFacts.optional(),
  /** Empty when the iteration is the same in both runs. */
  differences: z.array(Difference),
});
export type IterationComparison = z.infer<typeof IterationComparison>;

/** A run's side of a comparison: how it ended and (in a view with spend) what it spent in all. */
export const ComparedRun = z.object({
  runId: z.string(),
  agentName: z.string(),
  task: z.string(),
  status: ChainStatus,
  terminationReason: TerminationReason.optional(),
  answer: z.string().optional(),
  iterations: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative().optional(),
  tokens: z.number().nonnegative().optional(),
  /** Set on a fork: the run it started from and the step it kept through. */
  forkedFrom: z.object({ workflowId: z.string(), keptThroughStep: z.number().int().nonnegative() }).optional(),
});
export type ComparedRun = z.infer<typeof ComparedRun>;

export const ChainComparison = z.object({
  a: ComparedRun,
  b: ComparedRun,
  /** Every iteration either run has, aligned by number. */
  iterations: z.array(IterationComparison),
  answerDiffers: z.boolean(),
  /** The first iteration that differs; absent when every iteration is the same. */
  firstDifference: z.number().int().nonnegative().optional(),
});
export type ChainComparison = z.infer<typeof ChainComparison>;

/**
 * Two runs side by side (a fork and its origin, two variants of an experiment, a run and its
 * replay), aligned by iteration, with what differs in each marked. Reads chains as a view already
 * shaped them, so it shows nothing the caller may not see. Pure.
 */
export function compareChains(a: ReasoningChain, b: ReasoningChain, { spend = true } = {}): ChainComparison {
  const left = iterationsOf(a);
  const right = iterationsOf(b);
  const numbers = [...new Set([...left.keys(), ...right.keys()])].sort((x, y) => x - y);
  const iterations = numbers.map((iteration) => {
    const sideA = left.get(iteration);
    const sideB = right.get(iteration);
    // Without spend (the end user's view) a difference in cost alone is no difference, and no cost is shown.
    const differences = differ(sideA, sideB).filter((d) => spend || d !== 'cost');
    return {
      iteration,
      ...(sideA ? { a: spend ? sideA : withoutSpend(sideA) } : {}),
      ...(sideB ? { b: spend ? sideB : withoutSpend(sideB) } : {}),
      differences,
    };
  });
  const runA = comparedRun(a, left, spend);
  const runB = comparedRun(b, right, spend);
  const first = iterations.find((i) => i.differences.length > 0)?.iteration;
  return {
    a: runA,
    b: runB,
    iterations,
    answerDiffers: runA.answer !== runB.answer,
    ...(first !== undefined ? { firstDifference: first } : {}),
  };
}

function differ(a: IterationFacts | undefined, b: IterationFacts | undefined): Difference[] {
  if (!a || !b) return ['missing'];
  const out: Difference[] = [];
  if (a.thoughts.join('\n') !== b.thoughts.join('\n')) out.push('thought');
  const tools = (f: IterationFacts) => f.calls.map((c) => c.tool).join('\n');
  if (tools(a) !== tools(b)) out.push('calls');
  else {
    if (a.calls.some((c, i) => c.arguments !== b.calls[i]!.arguments)) out.push('arguments');
    if (a.calls.some((c, i) => c.result !== b.calls[i]!.result || c.failed !== b.calls[i]!.failed)) out.push('results');
  }
  if (a.models.join('\n') !== b.models.join('\n')) out.push('model');
  if (a.costUsd !== b.costUsd) out.push('cost');
  return out;
}

function iterationsOf(chain: ReasoningChain): Map<number, IterationFacts> {
  // A fork's note (where it started from) follows the steps it kept: the loop's words, not the model's.
  const forkNote = chain.forkedFrom ? chain.forkedFrom.keptThroughStep + 1 : undefined;
  const byIteration = new Map<number, IterationFacts>();
  const calls = new Map<string, ComparedCall>();
  const at = (iteration: number): IterationFacts => {
    let facts = byIteration.get(iteration);
    if (!facts)
      byIteration.set(iteration, (facts = { iteration, thoughts: [], calls: [], costUsd: 0, tokens: 0, models: [] }));
    return facts;
  };
  for (const step of chain.steps) {
    const facts = at(step.iteration);
    facts.costUsd = (facts.costUsd ?? 0) + (step.costUsd ?? 0);
    facts.tokens = (facts.tokens ?? 0) + (step.usage ? totalTokens(step.usage) : 0);
    if (step.type === 'thinking' && step.purpose === undefined && step.stepNumber !== forkNote)
      facts.thoughts.push(step.thought);
    else if (step.type === 'tool_call' && step.toolCall.toolType !== 'llm' && step.toolCall.toolType !== 'guardrail') {
      const call: ComparedCall = { tool: step.toolCall.toolName, arguments: canonicalJson(step.toolCall.arguments) };
      calls.set(step.toolCall.correlationId, call);
      facts.calls.push(call);
    } else if (step.type === 'tool_result') {
      if (step.model) facts.models.push(step.model);
      const call = calls.get(step.toolResult.correlationId);
      if (call) {
        call.result = step.toolResult.success
          ? canonicalJson(step.toolResult.result ?? null)
          : (step.toolResult.error ?? '');
        if (!step.toolResult.success) call.failed = true;
      }
    }
  }
  return byIteration;
}

function withoutSpend({ costUsd: _c, tokens: _t, ...facts }: IterationFacts): IterationFacts {
  return facts;
}

function comparedRun(chain: ReasoningChain, iterations: Map<number, IterationFacts>, spend: boolean): ComparedRun {
  const synthesis = [...chain.steps].reverse().find((s) => s.type === 'synthesis');
  const all = [...iterations.values()];
  return {
    runId: chain.chainId,
    agentName: chain.agentName,
    task: chain.task,
    status: chain.status,
    ...(synthesis?.synthesis.terminationReason ? { terminationReason: synthesis.synthesis.terminationReason } : {}),
    ...(synthesis ? { answer: synthesis.synthesis.conclusion } : {}),
    iterations: Math.max(0, ...all.map((i) => i.iteration)),
    ...(chain.forkedFrom
      ? {
          forkedFrom: {
            workflowId: chain.forkedFrom.workflowId,
            keptThroughStep: chain.forkedFrom.keptThroughStep,
          },
        }
      : {}),
    ...(spend
      ? {
          costUsd: all.reduce((sum, i) => sum + (i.costUsd ?? 0), 0),
          tokens: all.reduce((sum, i) => sum + (i.tokens ?? 0), 0),
        }
      : {}),
  };
}
