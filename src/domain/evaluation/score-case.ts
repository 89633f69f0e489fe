import type { Score } from './case-result';
import type { CaseExpectation } from './eval-case';
import type { ScoringFacts } from './scoring-facts';
import { answerMatch } from './scorers/answer-match';
import { coherence } from './scorers/coherence';
import { cost } from './scorers/cost';
import { forbiddenTools } from './scorers/forbidden-tools';
import { groundingMatch } from './scorers/grounding-match';
import { taskChoiceMatch } from './scorers/task-choice-match';
import { consensusMatch } from './scorers/consensus-match';
import { iterationShare } from './scorers/iteration-share';
import { latency } from './scorers/latency';
import { recovery } from './scorers/recovery';
import { terminationAccuracy } from './scorers/termination-accuracy';
import { trajectory } from './scorers/trajectory';

/**
 * The deterministic scores of one run, in a fixed order: `termination_accuracy` and `coherence`
 * always; `answer_match`, `trajectory`, `forbidden_tools`, `iteration_share`, `latency`, `cost`,
 * `grounding`, `task_choice` and `consensus` when the expectation has their field; `recovery` by its rule (scorers/recovery.ts). Pure and
 * sandbox-safe: the evaluation workflow calls it as the case's run ends.
 */
export function scoreCase(expect: CaseExpectation, facts: ScoringFacts): Score[] {
  const scores: Array<Score | undefined> = [
    terminationAccuracy(expect, facts),
    expect.answer && answerMatch(expect.answer, facts),
    expect.tools && trajectory(expect.tools, facts),
    expect.forbiddenTools && forbiddenTools(expect.forbiddenTools, facts),
    recovery(expect, facts),
    expect.maxIterationShare !== undefined ? iterationShare(expect.maxIterationShare, facts) : undefined,
    expect.maxLatencyMs !== undefined ? latency(expect.maxLatencyMs, facts) : undefined,
    expect.maxCostUsd !== undefined ? cost(expect.maxCostUsd, facts) : undefined,
    expect.grounding !== undefined ? groundingMatch(expect.grounding, facts) : undefined,
    expect.taskChoice !== undefined ? taskChoiceMatch(expect.taskChoice, facts) : undefined,
    expect.consensus !== undefined ? consensusMatch(expect.consensus, facts) : undefined,
    coherence(facts, expect.minCoherence),
  ];
  return scores.filter((s): s is Score => s !== undefined);
}
