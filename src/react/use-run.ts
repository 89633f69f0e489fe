import { useCallback, useEffect, useState } from 'react';
import type { RunStatus } from './api-types';
import { ThoughtlineApiError } from './thoughtline-api-error';
import { useRunFeed } from './use-chain';
import { useThoughtline } from './thoughtline-provider';

/**
 * A run as `GET /v1/runs/{id}` answers it (status, progress, pending approvals, ending), read
 * again whenever its event stream says the run changed (status, approval, sub-agent, end) and on
 * `refresh()`. It shows only the server's answers: nothing is assumed between them.
 */
export function useRun(runId: string | undefined) {
  const client = useThoughtline();
  const feed = useRunFeed(runId);
  const [read, setRead] = useState<{ runId: string; run?: RunStatus; error?: ThoughtlineApiError }>();
  const [asked, setAsked] = useState(0);
  const revision = feed?.revision ?? 0;

  useEffect(() => {
    if (!runId) return;
    const controller = new AbortController();
    client.request<RunStatus>('GET', `/v1/runs/${encodeURIComponent(runId)}`, { signal: controller.signal }).then(
      (run) => setRead({ runId, run }),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        const error = err instanceof ThoughtlineApiError ? err : new ThoughtlineApiError(0, 'unreachable', String(err));
        // A failed read keeps the last answer beside the error: it is still what the server said.
        setRead((prior) => ({ runId, ...(prior?.runId === runId && prior.run ? { run: prior.run } : {}), error }));
      },
    );
    return () => controller.abort();
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
