/**
 * Where the PostgreSQL tool connects: the node-postgres pool options it passes on. Declared here
 * rather than taken from @types/pg, so users' type checks do not need that package.
 */
export interface PostgresConnectionOptions {
  connectionString?: string;
  host?: string;
  port?: number;
  user?: string;
  password?: string;
  database?: string;
  ssl?: boolean | { rejectUnauthorized?: boolean; ca?: string; cert?: string; key?: string; servername?: string };
  application_name?: string;
  /** Connections kept at most. Default 4. */
  max?: number;
  /** Default 10,000 ms. */
  idleTimeoutMillis?: number;
  /** Default 10,000 ms. */
  connectionTimeoutMillis?: number;
}
