import { z } from 'zod';
import { ChainComparison, compareChains } from '../../domain/compare/chain-comparison';
import { defineRoute, type ApiRoute } from '../api-route';
import { chainForCaller } from './chain-for-caller';
import { SourcedQuery } from './store-schemas';

const CompareParams = z.object({ id: z.string().min(1).max(1000), other: z.string().min(1).max(1000) });

export const compareRuns = defineRoute({
  method: 'GET',
  url: '/v1/runs/:id/compare/:other',
  operationId: 'compareRuns',
  summary:
    "Two runs side by side in the caller's view: every iteration aligned by number with what differs marked (thought, calls, arguments, results, model, cost), both endings and answers",
  params: CompareParams,
  query: SourcedQuery,
  response: { status: 200, description: 'The comparison', schema: ChainComparison },
  errors: [400, 401, 403, 404, 503],
  async handle({ ctx, identity, params, query }) {
    // Each run through the one read gate, in the same view: a comparison shows nothing either read would not.
    const [a, b] = await Promise.all([
      chainForCaller(ctx, identity, params.id, query),
      chainForCaller(ctx, identity, params.other, query),
    ]);
    return compareChains(a.chain, b.chain, { spend: a.view !== 'end_user' });
  },
});

export const COMPARE_ROUTES: readonly ApiRoute[] = [compareRuns];
