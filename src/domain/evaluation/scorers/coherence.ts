import type { Score } from '../case-result';
import type { ScoringFacts } from '../scoring-facts';
import { percent, score } from './score';
import { counted } from '../../text/counted';
import { isSimilar, SIMILAR_THRESHOLD, turnFingerprint } from '../../text/similarity';

export const COHERENCE = 'coherence';

/** Seed 001 §6: thoughts connect to actions in 90%+ of steps. */
export const DEFAULT_MIN_COHERENCE = 0.9;

/**
 * A deterministic proxy of seed 001 §6's reasoning coherence, always scored: the mean of the parts
 * that apply to the run,
 * - thought: the share of tool calls whose model turn came with a thought (a reason for acting);
 * - readable: the share of model replies the run could act on (1 − format errors / model calls);
 * - progress, when the run repeated itself: the share of tool calls that do not repeat an earlier
 *   call, by the stall guard's own measure (text/similarity.ts at the default SIMILAR_THRESHOLD:
 *   the same tool with the same or near-same arguments, roles kept, so a model that stalls by
 *   rephrasing its query repeats here too); a run going round in circles, warned or stopped as
 *   stalled, scores low (a run that never repeats a call has no such part);
 * - grounded: for a run that ended `success` after calling tools, how much of the answer rests on
 *   the observations (AgentResult.grounding): its supported share of checked claims (the synthesis
 *   step's `claimCheck`), else 1 when grounded and 0 when not.
 * It passes at `minCoherence` (default 90%). What it cannot tell: whether a thought is relevant to
 * the call it led to, sound, or true; whether the answer follows from the observations beyond
 * the claims the rules can read; whether a run with no tool call reasoned at all. The
 * model-judged `judge` scorer reads the words.
 */
export function coherence(facts: ScoringFacts, minCoherence = DEFAULT_MIN_COHERENCE): Score {
  const parts: Array<{ name: string; value: number; detail: string }> = [];
  const calls = facts.toolCalls.length;
  if (calls > 0) {
    const withThought = facts.toolCalls.filter((c) => c.withThought).length;
    parts.push({
      name: 'thought',
      value: withThought / calls,
      detail: `${withThought}/${counted(calls, 'call')} with a thought`,
    });
  }
  const repeats = repeatedCalls(facts.toolCalls);
  if (repeats > 0)
    parts.push({
      name: 'progress',
      value: 1 - repeats / calls,
      detail: `${repeats}/${counted(calls, 'call')} repeat an earlier one`,
    });
  if (facts.modelCalls > 0) {
    const readable = Math.max(0, 1 - facts.formatErrors / facts.modelCalls);
    parts.push({
      name: 'readable',
      value: readable,
      detail: `${counted(facts.formatErrors, 'format error')} in ${counted(facts.modelCalls, 'model call')}`,
    });
  }
  // An answer only unchecked statements make up measures nothing of its grounding.
  const measured = facts.grounding !== 'unchecked' || facts.claims !== undefined;
  if (facts.terminationReason === 'success' && calls > 0 && facts.grounding !== undefined && measured) {
    const grounded = facts.grounding === 'grounded';
    const claims = facts.grounding !== 'unsupported' && facts.grounding !== 'ungrounded' ? facts.claims : undefined;
    parts.push(
      claims && claims.total > 0
        ? {
            name: 'grounded',
            value: claims.supported / claims.total,
            detail:
              claims.unsupported.length === 0
                ? `answer grounded (${claims.supported}/${counted(claims.total, 'claim')})`
                : facts.grounding === 'partly_grounded'
                  ? `answer partly grounded (${claims.supported}/${counted(claims.total, 'claim')}; unsupported: ${claims.unsupported.join(', ')})`
                  : `answer ${facts.grounding} (${claims.supported}/${counted(claims.total, 'claim')}; at fault: ${claims.unsupported.join(', ')})`,
          }
        : {
            name: 'grounded',
            value: grounded ? 1 : 0,
            detail: grounded ? 'answer grounded' : `answer ${facts.grounding}`,
          },
    );
  }
  if (parts.length === 0) return score(COHERENCE, 1, true, 'nothing to judge: no tool call and no model call');
  const value = parts.reduce((sum, p) => sum + p.value, 0) / parts.length;
  const passed = value >= minCoherence;
  return score(
    COHERENCE,
    value,
    passed,
    `${percent(value)} (${passed ? 'at least' : 'under'} ${percent(minCoherence)}): ${parts.map((p) => p.detail).join('; ')}`,
  );
}

/**
 * Calls that repeat an earlier call of the run as the stall guard reads a one-call turn: the
 * same fingerprint (turnFingerprint) at least SIMILAR_THRESHOLD alike (isSimilar). Equal
 * arguments always are; argument order is ignored. Quadratic in the calls a chain holds, which
 * its size bounds.
 */
function repeatedCalls(calls: ScoringFacts['toolCalls']): number {
  const seen: string[][] = [];
  let repeats = 0;
  for (const call of calls) {
    const shape = turnFingerprint([{ name: call.tool, input: call.arguments }]);
    if (seen.some((earlier) => isSimilar(shape, earlier, SIMILAR_THRESHOLD))) repeats += 1;
    else seen.push(shape);
  }
  return repeats;
}
