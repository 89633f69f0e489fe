import { canonicalJson } from '../approval/arguments-hash';
import type { ChainStatus, ReasoningChain, ReasoningStep } from '../chain/chain';
import type { TerminationReason } from '../run/termination';
import { totalTokens } from '../model/usage';

/** One call an iteration made (never a model call or a guardrail check): its tool, arguments and what came back, as the view shows them. */
export interface ComparedCall {
  tool: string;
  /** The arguments as canonical JSON (keys sorted), so equal arguments compare equal. */
  arguments: string;
  /** The result as canonical JSON, or the error; absent while the call runs. */
  result?: string;
  failed?: boolean;
}

/** One iteration of one run, as a comparison reads it. */
export interface IterationFacts {
  iteration: number;
  /** What the model thought before acting (not the loop's own notes). */
  thoughts: string[];
  calls: ComparedCall[];
  costUsd: number;
  tokens: number;
  /** The models that answered this iteration's model calls, in order. */
  models: string[];
}

/** What differs in one iteration; `missing`: only one run has it. */
export type Difference = 'missing' | 'thought' | 'calls' | 'arguments' | 'results' | 'model' | 'cost';

export interface IterationComparison {
  iteration: number;
  a?: IterationFacts;
  b?: IterationFacts;
  /** Empty when the iteration is the same in both runs. */
  differences: Difference[];
}

/** A run's side of a comparison: how it ended and what it spent in all. */
export interface ComparedRun {
  runId: string;
  agentName: string;
  task: string;
  status: ChainStatus;
  terminationReason?: TerminationReason;
  answer?: string;
  iterations: number;
  costUsd: number;
  tokens: number;
}

export interface ChainComparison {
  a: ComparedRun;
  b: ComparedRun;
  /** Every iteration either run has, aligned by number. */
  iterations: IterationComparison[];
  answerDiffers: boolean;
  /** The first iteration that differs; absent when every iteration is the same. */
  firstDifference?: number;
}

/**
 * Two runs side by side (a fork and its origin, two variants of an experiment, a run and its
 * replay), aligned by iteration, with what differs in each marked. Reads chains as a view already
 * shaped them, so it shows nothing the caller may not see. Pure.
 */
export function compareChains(a: ReasoningChain, b: ReasoningChain): ChainComparison {
  const left = iterationsOf(a.steps);
  const right = iterationsOf(b.steps);
  const numbers = [...new Set([...left.keys(), ...right.keys()])].sort((x, y) => x - y);
  const iterations = numbers.map((iteration) => {
    const sideA = left.get(iteration);
    const sideB = right.get(iteration);
    return {
      iteration,
      ...(sideA ? { a: sideA } : {}),
      ...(sideB ? { b: sideB } : {}),
      differences: differ(sideA, sideB),
    };
  });
  const runA = comparedRun(a, left);
  const runB = comparedRun(b, right);
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

function iterationsOf(steps: readonly ReasoningStep[]): Map<number, IterationFacts> {
  const byIteration = new Map<number, IterationFacts>();
  const calls = new Map<string, ComparedCall>();
  const at = (iteration: number): IterationFacts => {
    let facts = byIteration.get(iteration);
    if (!facts)
      byIteration.set(iteration, (facts = { iteration, thoughts: [], calls: [], costUsd: 0, tokens: 0, models: [] }));
    return facts;
  };
  for (const step of steps) {
    const facts = at(step.iteration);
    facts.costUsd += step.costUsd ?? 0;
    facts.tokens += step.usage ? totalTokens(step.usage) : 0;
    if (step.type === 'thinking' && step.purpose === undefined) facts.thoughts.push(step.thought);
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

function comparedRun(chain: ReasoningChain, iterations: Map<number, IterationFacts>): ComparedRun {
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
    costUsd: all.reduce((sum, i) => sum + i.costUsd, 0),
    tokens: all.reduce((sum, i) => sum + i.tokens, 0),
  };
}
