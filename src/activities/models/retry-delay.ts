/**
 * The wait a server asked for, in ms: `retry-after-ms` wins over `retry-after` (seconds or an
 * HTTP date), as both the Anthropic and OpenAI SDKs read them. Becomes Temporal's `nextRetryDelay`.
 */
export function retryDelayMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms > 0) return ms;
  const retryAfter = headers?.get('retry-after');
  if (retryAfter === null || retryAfter === undefined) return undefined;
  const seconds = Number.parseFloat(retryAfter);
  const delay = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - now;
  return Number.isFinite(delay) && delay > 0 ? Math.ceil(delay) : undefined;
}
