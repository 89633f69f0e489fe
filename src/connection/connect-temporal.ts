import { Connection } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import type { TemporalEndpoint } from './connection-settings';
import { explainConnectFailure } from './explain-connect-failure';
import { thoughtlineGrpcInterceptors } from './query-buffer-retry';

/**
 * A client Connection to `endpoint`; a refused TLS or credential fails saying which TEMPORAL_*
 * variable to set. A query refused because its run's query buffer is full is retried within
 * milliseconds (queryBufferRetryOptions); other failures as Temporal's client retries them.
 */
export async function connectClient(endpoint: TemporalEndpoint): Promise<Connection> {
  try {
    return await Connection.connect({ ...endpoint, interceptors: thoughtlineGrpcInterceptors() });
  } catch (err) {
    throw await explainConnectFailure(endpoint, err);
  }
}

/**
 * A worker's NativeConnection to `endpoint`; failures are explained as for connectClient. The
 * worker package (and its native core) loads here, not with the module: a client never needs it,
 * and it is a fifth of a CLI command's start.
 */
export async function connectNative(endpoint: TemporalEndpoint): Promise<NativeConnection> {
  const { NativeConnection } = require('@temporalio/worker') as typeof import('@temporalio/worker');
  try {
    return await NativeConnection.connect({ ...endpoint });
  } catch (err) {
    throw await explainConnectFailure(endpoint, err);
  }
}
