import { z } from 'zod';
import { RunImport } from './stored-run';

/**
 * Where a chain read was answered from, said with every read that may come from the store:
 * - `store`: the chain store (`storeOnly` when Temporal no longer has the run's history);
 * - `temporal`: the workflow (query or result): there is no store, it is behind for this run, or
 *   it could not be reached (`storeUnavailable` says why, and the read still succeeded).
 */
export const ChainSource = z.object({
  source: z.enum(['store', 'temporal']),
  storeOnly: z.boolean().optional(),
  storeUnavailable: z.string().optional(),
  /** With `source: 'store'`: the highest step the store holds for the run. */
  storedThroughStep: z.number().int().nonnegative().optional(),
  /** With `source: 'store'`: the run came from a sealed export (`thoughtline import`), and how. */
  imported: RunImport.optional(),
});
export type ChainSource = z.infer<typeof ChainSource>;
