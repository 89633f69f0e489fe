/** Streams one person holds at most on `serve` (its default `maxWatchersPerIdentity`, events-route.ts). */
export const STREAMS_PER_PERSON = 100;
