/**
 * Packages a default install leaves out: each serves a production topology or an integration a
 * first worker does not use (a Redis event bus, a Postgres store, MCP servers and clients, OpenTelemetry export), so each
 * is an optional peer dependency, loaded only when configured. The ranges are package.json's
 * `peerDependencies` (a unit test holds them equal), so the install command a refusal names is
 * the one that satisfies it.
 */
export const OPTIONAL_PEERS = {
  pg: '^8.23.1',
  redis: '^6.3.1',
  '@modelcontextprotocol/sdk': '^1.32.2',
  '@opentelemetry/resources': '^1.30.1',
  '@opentelemetry/sdk-metrics': '^1.30.1',
  '@opentelemetry/sdk-trace-base': '^1.30.1',
  '@opentelemetry/sdk-trace-node': '^1.30.1',
  '@temporalio/interceptors-opentelemetry': '1.24.0',
  '@opentelemetry/exporter-trace-otlp-proto': '^0.57.2',
  '@opentelemetry/exporter-trace-otlp-http': '^0.57.2',
  '@opentelemetry/exporter-trace-otlp-grpc': '^0.57.2',
  '@opentelemetry/exporter-metrics-otlp-proto': '^0.57.2',
  '@opentelemetry/exporter-metrics-otlp-http': '^0.57.2',
  '@opentelemetry/exporter-metrics-otlp-grpc': '^0.57.2',
} as const;
export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

/** The one command that installs `packages` next to thoughtline, at the ranges it accepts. */
export function installCommand(packages: readonly OptionalPeer[]): string {
  return `npm install ${packages.map((name) => `${name}@${OPTIONAL_PEERS[name]}`).join(' ')}`;
}

/** A feature was asked for whose optional peers are not installed where thoughtline can load them. */
export class OptionalPeerMissingError extends Error {
  override readonly name = 'OptionalPeerMissingError';
  readonly installCommand: string;
  constructor(
    readonly feature: string,
    readonly packages: readonly OptionalPeer[],
    cause: unknown,
  ) {
    const command = installCommand(packages);
    super(
      `${feature} needs ${packages.join(', ')}, which ${packages.length === 1 ? 'is' : 'are'} not installed ` +
        `(optional: a default install leaves ${packages.length === 1 ? 'it' : 'them'} out). ` +
        `Install next to thoughtline: ${command}`,
      { cause },
    );
    this.installCommand = command;
  }
}

/** True when `error` says the package `name` itself cannot be found (not a file inside it, not another package). */
export function isMissingPackage(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes(`'${name}'`)
  );
}

/** Whether `name` resolves from thoughtline's own folder, as `require` in `load` would look for it. */
function installed(name: string): boolean {
  try {
    require.resolve(name);
    return true;
  } catch (error) {
    return !isMissingPackage(error, name);
  }
}

/**
 * `load()`'s result, where `load` requires `packages` (synchronously, on first use). When any of
 * them is missing, throws OptionalPeerMissingError naming every missing one, not only the first;
 * any other failure is rethrown as it is.
 */
export function requireOptionalPeers<T>(feature: string, packages: readonly OptionalPeer[], load: () => T): T {
  try {
    return load();
  } catch (error) {
    const missing = packages.filter((name) => !installed(name));
    if (missing.length > 0) throw new OptionalPeerMissingError(feature, missing, error);
    throw error;
  }
}
