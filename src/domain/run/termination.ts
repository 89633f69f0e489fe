import { z } from 'zod';

/** Why a run ended. The values are public (DESIGN.md); add, never rename. */
export const TerminationReason = z.enum([
  'success',
  'max_iterations',
  'failure',
  'stalled',
  'token_budget',
  'cost_budget',
  'timeout',
  'cancelled',
  'custom',
  'error',
]);
export type TerminationReason = z.infer<typeof TerminationReason>;
