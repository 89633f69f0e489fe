import { NamespaceNotFoundError } from '@temporalio/client';
import { GrpcCode, grpcCause, type GrpcCause } from './grpc-cause';

/** The namespace a server's words name ("Namespace x is not found", "Namespace x has no mapping …"), if they do. */
const namespaceIn = (details: string): string | undefined => /\bNamespace (\S+?)\.? (?:is|has)\b/.exec(details)?.[1];
const listAttributes = (namespace: string | undefined): string =>
  `"temporal operator search-attribute list --namespace ${namespace ?? '<namespace>'}"`;

/** The attribute a start was refused for because the server does not know it (yet); undefined for other refusals. */
function unknownAttributeIn(cause: GrpcCause): string | undefined {
  if (cause.code !== GrpcCode.INVALID_ARGUMENT) return undefined;
  // SQL visibility (the dev server, PostgreSQL) says the first; Elasticsearch and the test server the second.
  return (
    /no mapping defined for search attribute (\w+)/.exec(cause.details)?.[1] ??
    /search attribute (\w+) is not defined/.exec(cause.details)?.[1]
  );
}

/**
 * True when the server refused a start because it does not know one of its search attributes:
 * not registered, or registered so recently that the frontend has not seen it (its namespace
 * cache refreshes every 10 s on a cluster). Worth retrying for a while; a value the server
 * finds invalid (too long, wrong type) is not.
 */
export const isUnknownSearchAttribute = (err: unknown): boolean => {
  const cause = grpcCause(err);
  return cause !== undefined && unknownAttributeIn(cause) !== undefined;
};

/**
 * The server's refusals Thoughtline can say something about, first match wins: each maps the
 * server's answer to what the person should do next.
 */
const ADVICE: ReadonlyArray<(cause: GrpcCause) => string | undefined> = [
  // The namespace (TEMPORAL_NAMESPACE) does not exist on this server.
  (c) => {
    const namespace =
      c.code === GrpcCode.NOT_FOUND ? /Namespace (\S+?)\.? is not found/.exec(c.details)?.[1] : undefined;
    return namespace ? createNamespace(namespace) : undefined;
  },
  // Registered elsewhere but not seen yet, or never registered: each thoughtline command registers them when it connects.
  (c) => {
    const attribute = unknownAttributeIn(c);
    return attribute
      ? `the server does not know search attribute ${attribute} in this namespace (a thoughtline command registers it ` +
          `as it connects; one just registered can take seconds to show): run the command again, or check with ${listAttributes(namespaceIn(c.details))}`
      : undefined;
  },
  // A value Thoughtline stores in an attribute (model, agent, tenant, caller) is longer than the server allows (2 KB by default).
  (c) => {
    const attribute =
      c.code === GrpcCode.INVALID_ARGUMENT ? /search attribute (\w+) value size/.exec(c.details)?.[1] : undefined;
    return attribute
      ? `shorten the value it names (a model, agent, tenant or caller name is stored in ${attribute}), or raise the server's limit.searchAttributesSizeOfValue`
      : undefined;
  },
  (c) =>
    c.code === GrpcCode.INVALID_ARGUMENT
      ? 'the server refused the request as invalid: change what it names'
      : undefined,
  (c) =>
    c.code === GrpcCode.UNAVAILABLE
      ? 'the Temporal server did not answer: check that it runs and that TEMPORAL_ADDRESS points at it'
      : undefined,
  (c) =>
    c.code === GrpcCode.DEADLINE_EXCEEDED
      ? 'the server did not answer in time (overloaded, or its database is slow): try again in a moment'
      : undefined,
  (c) =>
    c.code === GrpcCode.PERMISSION_DENIED || c.code === GrpcCode.UNAUTHENTICATED
      ? "the server refused this client: check the client's credentials and its permissions in the namespace"
      : undefined,
  (c) =>
    c.code === GrpcCode.RESOURCE_EXHAUSTED
      ? "the server is limiting this namespace's requests: wait a moment and try again"
      : undefined,
];

const createNamespace = (namespace: string): string =>
  `create namespace ${namespace} with "temporal operator namespace create --namespace ${namespace}", or set TEMPORAL_NAMESPACE to one that exists`;

/** What to do about a server's refusal, in one sentence; undefined when `err` is not the server's or nothing useful can be said. */
export function serverErrorAdvice(err: unknown): string | undefined {
  // The SDK turns a start's NOT_FOUND namespace into its own error, without the gRPC one as cause.
  if (err instanceof NamespaceNotFoundError) return createNamespace(err.namespace);
  const cause = grpcCause(err);
  if (!cause) return undefined;
  for (const advise of ADVICE) {
    const advice = advise(cause);
    if (advice) return advice;
  }
  return undefined;
}
