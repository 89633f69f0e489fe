import type { TemporalEndpoint } from '../connection/connection-settings';

/** A reachable Temporal frontend, however it was obtained. */
export interface TemporalServer {
  /** host:port of the gRPC frontend, e.g. '127.0.0.1:7233'. */
  address: string;
  /** How to connect to it: the address with its TLS and credentials (plain for a local dev server). */
  endpoint: TemporalEndpoint;
  /** 'default' unless TEMPORAL_NAMESPACE is set. */
  namespace: string;
  /** Web UI, e.g. 'http://localhost:8233', when known. */
  uiUrl?: string;
  source: 'env' | 'already-running' | 'started';
  /** Stops the server only if this process started it in the foreground; otherwise does nothing. */
  stop(): Promise<void>;
  /** For a server this process started in the foreground: resolves with the reason when it exits. */
  exited?: Promise<string>;
}

export interface EnsureServerOptions {
  /** Default: nearest directory with a package.json above this module (works from src/ and dist/). */
  projectRoot?: string;
  /** Progress and reasons; default console.error. */
  log?: (line: string) => void;
  /**
   * true: the started server outlives this process (pid in .thoughtline/temporal-server.pid).
   * false (default): it is killed when this process exits.
   * Either way its output goes to .thoughtline/temporal-server.log.
   */
  detached?: boolean;
  /** gRPC port, default 7233; the Web UI uses port + 1000. */
  port?: number;
}
