/** Reaching Temporal with the standard TEMPORAL_* variables and temporal.toml profiles (docs/operations.md). Node only. */
export {
  endpointOf,
  hideSecrets,
  LOCAL_ADDRESS,
  securityOf,
  type ConnectionOverrides,
  type ConnectionSettings,
  type TemporalEndpoint,
} from './connection-settings';
export { connectClient, connectNative } from './connect-temporal';
export {
  isQueryBufferFull,
  QUERY_BUFFER_RETRY,
  queryBufferRetryOptions,
  thoughtlineGrpcInterceptors,
} from './query-buffer-retry';
export { explainConnectFailure } from './explain-connect-failure';
export { loadConnectionSettings } from './load-connection-settings';
export { TemporalConfigError } from './temporal-config-error';
export { TemporalConnectionError } from './temporal-connection-error';
