import type { AgentResult } from '../../../domain';
import { MAX_CARRIED_BYTES, jsonBytes } from '../../../domain/run/payload-size';
import { CARRY_LEVELS, shortenChain } from '../handover/carry-over';

/** Longest final answer or error a result keeps once it had to be shortened. */
const RESULT_TEXT_CHARS = 16_000;

/** Whether the result fits one Temporal payload as it is (under MAX_CARRIED_BYTES). */
export const fitsPayload = (result: AgentResult, limit = MAX_CARRIED_BYTES): boolean => jsonBytes(result) < limit;

/**
 * The result as it fits one Temporal payload (MAX_CARRIED_BYTES): unchanged when it already does;
 * else its chain is shortened as a handover shortens it, level by level, and as a last resort the
 * answer and error are cut and only the newest steps kept (the earlier runs' histories and this
 * run's history keep everything). Pure and deterministic.
 */
export function fitResult(result: AgentResult, runId: string, limit = MAX_CARRIED_BYTES): AgentResult {
  if (fitsPayload(result, limit)) return result;
  for (const level of CARRY_LEVELS.slice(1)) {
    const shorter = { ...result, chain: shortenChain(result.chain, runId, level) };
    if (jsonBytes(shorter) < limit) return shorter;
  }
  const hardest = CARRY_LEVELS[CARRY_LEVELS.length - 1]!;
  const steps = shortenChain(result.chain, runId, hardest).steps;
  const cut = (text: string) =>
    text.length > RESULT_TEXT_CHARS
      ? `${text.slice(0, RESULT_TEXT_CHARS)}…[${text.length} characters; shortened to fit the result]`
      : text;
  const base: AgentResult = {
    ...result,
    finalAnswer: cut(result.finalAnswer),
    ...(result.error === undefined ? {} : { error: cut(result.error) }),
    chain: { ...result.chain, steps: [] },
  };
  let room = limit - jsonBytes(base);
  let from = steps.length;
  while (from > 0) {
    const size = jsonBytes(steps[from - 1]) + 1;
    if (size > room) break;
    room -= size;
    from -= 1;
  }
  const note =
    from > 0
      ? ` The result's chain keeps only its last ${steps.length - from} of ${steps.length} steps, to fit Temporal's payload limit.`
      : '';
  return {
    ...base,
    chain: { ...base.chain, steps: steps.slice(from) },
    ...(note && base.error !== undefined ? { error: base.error + note } : {}),
  };
}
