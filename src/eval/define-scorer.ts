import type { AgentResult } from '../domain/run/agent-result';
import type { EvalCase } from '../domain/evaluation/eval-case';
import type { ScoringFacts } from '../domain/evaluation/scoring-facts';

/** What a scorer reads of one ended run: its case, the facts the built-in scorers read, and the whole AgentResult. */
export interface ScorerInput {
  case: EvalCase;
  facts: ScoringFacts;
  result: AgentResult;
}

/**
 * A scorer's verdict: `value` in [0, 1] (or a boolean: 1 or 0), `why` in words (cut to 200
 * characters), `passed` (default: value ≥ 0.5).
 */
export interface ScorerVerdict {
  value: number | boolean;
  why: string;
  passed?: boolean;
}

/** A scorer a worker runs on evaluation runs whose case or evaluation names it (`createAgentWorker({ scorers })`). */
export interface ScorerDefinition {
  /** How datasets and `thoughtline eval --scorer` name it: letters, digits, `-`, `_`, `.`; at most 64. */
  readonly name: string;
  readonly description?: string;
  score(input: ScorerInput): ScorerVerdict | Promise<ScorerVerdict>;
}

/**
 * A scorer of your own, run in the worker (Node) after each evaluation run that names it. It may
 * be async and do I/O; it should be deterministic for a given run, since a retried scoring runs it
 * again. What it throws becomes a failed score whose `why` is the error, never a failed evaluation.
 */
export function defineScorer(definition: ScorerDefinition): ScorerDefinition {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(definition.name))
    throw new TypeError(
      `Scorer name "${definition.name}": use 1 to 64 letters, digits, "-", "_" and "." (datasets name scorers by it).`,
    );
  if (definition.name === 'judge')
    throw new TypeError(
      'Scorer name "judge" is the model judge\'s (set `judge` in the evaluation); pick another name.',
    );
  if (typeof definition.score !== 'function')
    throw new TypeError(`Scorer "${definition.name}" needs a score function.`);
  return Object.freeze({ ...definition });
}
