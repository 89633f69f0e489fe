import { useCallback, useEffect, useRef, useState } from 'react';
import type { RunStatus } from './api-types';
import { ThoughtlineApiError } from './thoughtline-api-error';
import { useRunFeed } from './use-chain';
import { useThoughtline } from './thoughtline-provider';

/** Least time between two reads of a run: each is a status query to Temporal (an action on Temporal Cloud). */
export const MIN_RUN_READ_MS = 1_000;

/**
 * A run as `GET /v1/runs/{id}` answers it (status, progress, pending approvals, ending), read
 * again when its event stream says the run changed (status, approval, sub-agent, end) and on
 * `refresh()`, at most once per MIN_RUN_READ_MS (the last change is always read). It shows only
 * the server's answers: nothing is assumed between them.
 */
export function useRun(runId: string | undefined) {
  const client = useThoughtline();
  const feed = useRunFeed(runId);
  const [read, setRead] = useState<{ runId: string; run?: RunStatus; error?: ThoughtlineApiError }>();
  const [asked, setAsked] = useState(0);
  const revision = feed?.revision ?? 0;
  const lastRead = useRef(0);

  useEffect(() => {
    if (!runId) return;
    const controller = new AbortController();
    const readRun = (): void => {
      lastRead.current = Date.now();
      client.request<RunStatus>('GET', `/v1/runs/${encodeURIComponent(runId)}`, { signal: controller.signal }).then(
        (run) => setRead({ runId, run }),
        (err: unknown) => {
          if (controller.signal.aborted) return;
          const error =
            err instanceof ThoughtlineApiError ? err : new ThoughtlineApiError(0, 'unreachable', String(err));
          // A failed read keeps the last answer beside the error: it is still what the server said.
          setRead((prior) => ({ runId, ...(prior?.runId === runId && prior.run ? { run: prior.run } : {}), error }));
        },
      );
    };
    // A newer change cancels a read not yet made, so a burst of events costs one read, not one each.
    const timer = setTimeout(readRun, Math.max(0, lastRead.current + MIN_RUN_READ_MS - Date.now()));
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [client, runId, revision, asked]);

  const refresh = useCallback(() => setAsked((n) => n + 1), []);
  const current = read?.runId === runId ? read : undefined;
  return {
    run: current?.run,
    error: current?.error ?? feed?.error,
    stream: feed?.stream ?? 'connecting',
    refresh,
  };
}
