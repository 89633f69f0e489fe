import { useCallback, useEffect, useState } from 'react';
import type { RunList, RunsFilter } from './api-types';
import { ThoughtlineApiError } from './thoughtline-api-error';
import { useThoughtline } from './thoughtline-provider';

/** The filter as `GET /v1/runs` takes it, in a stable order (so an equal filter is the same request). */
function queryOf(filter: RunsFilter): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(filter).sort()) {
    const value = filter[key as keyof RunsFilter];
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * Your runs, newest first, as `GET /v1/runs` answers for the filter (status, reason, agent,
 * startedAfter, pageSize, pageToken…): read on mount, when the filter changes, on `refresh()`, and
 * every `refreshMs` when given. `nextPageToken` is the next page's `pageToken`.
 */
export function useRuns(filter: RunsFilter = {}, options: { refreshMs?: number } = {}) {
  const client = useThoughtline();
  const query = queryOf(filter);
  const [read, setRead] = useState<{ query: string; list?: RunList; error?: ThoughtlineApiError }>();
  const [asked, setAsked] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    client.request<RunList>('GET', `/v1/runs${query}`, { signal: controller.signal }).then(
      (list) => setRead({ query, list }),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        const error = err instanceof ThoughtlineApiError ? err : new ThoughtlineApiError(0, 'unreachable', String(err));
        setRead((prior) => ({ query, ...(prior?.query === query && prior.list ? { list: prior.list } : {}), error }));
      },
    );
    return () => controller.abort();
  }, [client, query, asked]);

  useEffect(() => {
    if (!options.refreshMs) return;
    const timer = setInterval(() => setAsked((n) => n + 1), Math.max(1_000, options.refreshMs));
    return () => clearInterval(timer);
  }, [options.refreshMs]);

  const current = read?.query === query ? read : undefined;
  return {
    runs: current?.list?.runs ?? [],
    nextPageToken: current?.list?.nextPageToken,
    loading: current === undefined,
    error: current?.error,
    refresh: useCallback(() => setAsked((n) => n + 1), []),
  };
}
