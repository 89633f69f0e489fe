import type { FakeRequestBody } from './recorded-request';

/** The API version @anthropic-ai/sdk 1.x sends by default. */
export const CURRENT_API_VERSION = '2026-10-21';
const SAMPLING_FIELDS = ['temperature', 'top_p', 'top_k'] as const;

/**
 * The real API's answer to sampling parameters on version 2026-10-21: a 400 for any of
 * `temperature`, `top_p`, `top_k`, at any value, defaults included (version 2023-06-01 still takes
 * them). Kept here so a provider that sends one without choosing the older version fails against
 * the fake as it would against the API, instead of passing a test it should not.
 */
export function apiVersionProblem(version: string | undefined, body: FakeRequestBody): string | undefined {
  if (version !== CURRENT_API_VERSION) return undefined;
  const sent = SAMPLING_FIELDS.find((field) => body[field] !== undefined);
  return sent === undefined ? undefined : `${sent}: Extra inputs are not permitted (anthropic-version ${version})`;
}
