import { useEffect, useState, useSyncExternalStore } from 'react';
import type { RunFeed, RunFeedState } from './run-feed';
import { useThoughtline } from './thoughtline-provider';

const nothing = (): undefined => undefined;
const noSubscription = (): (() => void) => () => undefined;

/** The run's shared event feed while the component is mounted; undefined before it opens or without an id. */
export function useRunFeed(runId: string | undefined): RunFeedState | undefined {
  const client = useThoughtline();
  const [feed, setFeed] = useState<RunFeed>();
  useEffect(() => {
    if (!runId) return;
    const watched = client.watch(runId);
    setFeed(watched.feed);
    return () => {
      watched.release();
      setFeed(undefined);
    };
  }, [client, runId]);
  const state = useSyncExternalStore(feed?.subscribe ?? noSubscription, feed?.snapshot ?? nothing);
  return state?.runId === runId ? state : undefined;
}

/**
 * A run's reasoning chain as it grows, from `GET /v1/runs/{id}/events`: its steps in your view,
 * each once and in order, the model's text as it streams, and how the run ended. Reconnects by
 * itself (Last-Event-ID) after a drop or a server restart; closes the stream on unmount.
 */
export function useChain(runId: string | undefined) {
  const state = useRunFeed(runId);
  return {
    steps: state?.steps ?? [],
    droppedSteps: state?.droppedSteps ?? 0,
    chainStatus: state?.chainStatus,
    liveText: state?.liveText ?? '',
    ending: state?.ending,
    stream: state?.stream ?? 'connecting',
    error: state?.error,
  };
}
