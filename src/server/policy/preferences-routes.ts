import { z } from 'zod';
import { ViewerPreferences } from '../../domain/visibility';
import type { ChainStore } from '../../store/chain-store';
import { ApiError } from '../api-error';
import { defineRoute, type ApiContext, type ApiRoute } from '../api-route';
import type { Identity } from '../auth/identity';
import { defaultView } from '../auth/view-policy';
import { preferencesKey } from './preferences-key';

export const PreferencesResponse = z.object({
  preferences: ViewerPreferences,
  /** False when nothing is saved yet: `preferences` are then the defaults (the role's view as it is). */
  saved: z.boolean(),
  /** False when the visibility policy says the caller's view takes no preferences: they are kept but not applied. */
  applies: z.boolean(),
});

function needStore(ctx: ApiContext): ChainStore {
  if (ctx.store) return ctx.store;
  throw new ApiError(
    'unavailable',
    'Viewer preferences are kept in the chain store, which is off: run serve with a store (THOUGHTLINE_STORE unset keeps .thoughtline/store.sqlite; "off" disables it).',
  );
}

/** A store that fails is a 503 saying so; a preference is never half-saved. */
async function storeCall<T>(store: ChainStore, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch {
    throw new ApiError('unavailable', `The chain store (${store.kind}) could not be reached now; retry shortly.`);
  }
}

function applies(ctx: ApiContext, identity: Identity): boolean {
  const view = defaultView(identity.roles, ctx.policy?.policy);
  return view === undefined ? false : ctx.policy?.policy.roles[view]?.preferences !== false;
}

export const getPreferences = defineRoute({
  method: 'GET',
  url: '/v1/me/preferences',
  operationId: 'getPreferences',
  summary:
    "The caller's viewing preferences (journey 5: thinking, external calls, internal calls, final reasoning, summaries only); the defaults when none are saved",
  response: { status: 200, description: "The caller's preferences", schema: PreferencesResponse },
  errors: [401, 503],
  async handle({ ctx, identity }) {
    const store = needStore(ctx);
    const saved = await storeCall(store, () => store.readPreferences(preferencesKey(identity)));
    return {
      preferences: saved ?? ViewerPreferences.parse({}),
      saved: saved !== undefined,
      applies: applies(ctx, identity),
    };
  },
});

export const putPreferences = defineRoute({
  method: 'PUT',
  url: '/v1/me/preferences',
  operationId: 'putPreferences',
  summary:
    "Saves the caller's viewing preferences (fields left out take their defaults); they narrow every read of theirs within the policy, except with ?details=true",
  body: ViewerPreferences,
  response: { status: 200, description: 'The preferences as saved', schema: PreferencesResponse },
  errors: [400, 401, 413, 503],
  async handle({ ctx, identity, body }) {
    const store = needStore(ctx);
    await storeCall(store, () => store.writePreferences(preferencesKey(identity), body));
    return { preferences: body, saved: true, applies: applies(ctx, identity) };
  },
});

export const PREFERENCES_ROUTES: readonly ApiRoute[] = [getPreferences, putPreferences];
