import type { ReasoningChain, ReasoningStep } from '../../domain';
import { chainPage, type ChainPage } from '../../domain/chain/chain-page';

/**
 * Reads what Temporal run `runId` holds of the chain up to its `earlier` boundary (in the caller's
 * view), with the pointer further back; undefined when that run is no longer on the server.
 */
export type ReadRunChain = (runId: string, page: ChainPage | undefined) => Promise<ReasoningChain | undefined>;

/**
 * A run's whole chain, or one page of it, from the chain of its latest Temporal run: while the
 * steps wanted go back further than that chain carries, the steps its `earlier` points to are
 * read in turn (a handover's archive, or an older run's own chain), then joined by step number.
 * A run gone from the server (retention) ends the walk: the steps after it are returned, and
 * `unavailable` says which are missing, so a long run stays readable as its first runs expire.
 */
export async function joinedChain(
  latest: ReasoningChain,
  read: ReadRunChain,
  page?: ChainPage,
): Promise<ReasoningChain> {
  const after = page?.afterStep ?? 0;
  const parts: ReasoningStep[][] = [latest.steps];
  let boundary = latest.earlier;
  let unavailable: ReasoningChain['unavailable'];
  while (boundary && after < boundary.throughStep) {
    const through = boundary.throughStep;
    const part = await read(boundary.runId, page);
    if (!part) {
      unavailable = { runId: boundary.runId, throughStep: through };
      break;
    }
    parts.push(part.steps.filter((s) => s.stepNumber <= through));
    // Each earlier chain must end before the one after it began; anything else would loop.
    if (part.earlier && part.earlier.throughStep >= through)
      throw new Error(
        `The chain of run ${boundary.runId} points forward (to step ${part.earlier.throughStep}, not before ${through}).`,
      );
    boundary = part.earlier;
  }
  const { earlier: _carried, ...head } = latest;
  return chainPage({ ...head, steps: parts.reverse().flat(), ...(unavailable ? { unavailable } : {}) }, page ?? {});
}
