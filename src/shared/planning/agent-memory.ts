import { z } from 'zod';
import { Learning } from './plan-verdicts';

/**
 * Learnings kept across runs of one agent for one tenant (`planning.memory`): read by a later run
 * as a visible step, listed and deleted with `thoughtline memory`. Never shared across tenants:
 * the tenant comes from the run's authenticated caller. Bounded: the oldest go first.
 */
export const MAX_MEMORY_ENTRIES = 100;
/** Entries a run reads into its prompt: the newest. */
export const MAX_RECALLED_ENTRIES = 10;

export const MemoryEntry = Learning.extend({
  id: z.string().min(1).max(64),
  /** When it was remembered (the workflow's clock), ISO 8601. */
  at: z.string().max(40),
});
export type MemoryEntry = z.infer<typeof MemoryEntry>;

/** The tenant a run without one belongs to, for memory keys. */
export const DEFAULT_MEMORY_TENANT = 'default';
