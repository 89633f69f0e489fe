import { InternalConnectionLikeSymbol, type Client, type InternalConnectionLike } from '@temporalio/client';

/**
 * `requestEagerStart` for a client that shares a worker's NativeConnection (a script, test or
 * benchmark with its worker in-process): the server hands the run's first workflow task back in
 * the start's reply, and the SDK gives it to that worker when it has a free slot, saving the
 * matching service's dispatch and a poll. Any other client asks nothing (Temporal refuses the
 * request over a plain Connection). Without a local worker for the queue, or on a server with
 * eager start off, the run starts as it always did.
 */
export function eagerStartOption(client: Client): { requestEagerStart?: true } {
  const connection = client.connection as InternalConnectionLike;
  return connection[InternalConnectionLikeSymbol]?.supportsEagerStart ? { requestEagerStart: true } : {};
}
