import { z } from 'zod';
import { ReasoningStep } from '../chain/chain';
import { ViewerRole } from '../identity/people';

/**
 * A Thoughtline A2A task's chain artifact (docs/a2a.md, "The chain artifact"): its id, its one
 * data part's media type and `kind`. The caller's view of the chain, never more.
 */
export const CHAIN_ARTIFACT_ID = 'reasoning-chain';
export const CHAIN_MEDIA_TYPE = 'application/vnd.thoughtline.chain+json';
export const CHAIN_ARTIFACT_KIND = 'thoughtline-chain';

/** The most steps, and JSON characters of steps, one chain artifact carries; beyond, it is cut and says so. */
export const MAX_CHAIN_ARTIFACT_STEPS = 200;
export const MAX_CHAIN_ARTIFACT_CHARS = 256_000;

/** The chain artifact's data part, as a server writes it and a parent reads it (anything else is refused). */
export const ChainArtifactData = z.object({
  kind: z.literal(CHAIN_ARTIFACT_KIND),
  version: z.literal(1),
  runId: z.string().min(1).max(1_000),
  /** The view the steps are in: the caller's, from its authenticated identity. */
  view: ViewerRole,
  /** Steps in the whole chain; more than `steps` when the artifact was cut. */
  totalSteps: z.number().int().nonnegative(),
  steps: z.array(ReasoningStep).max(MAX_CHAIN_ARTIFACT_STEPS),
  /** Set when the artifact holds only the first steps: why, and where the whole chain is. */
  truncated: z.object({ reason: z.enum(['steps', 'size']), note: z.string().max(500) }).optional(),
  /** The whole chain on the server (`GET /v1/runs/{id}/chain`), absolute when the server knows its public URL. */
  chain: z.string().max(2_000),
});
export type ChainArtifactData = z.infer<typeof ChainArtifactData>;
