import { isGrpcServiceError } from '@temporalio/client';

/** The gRPC status codes Thoughtline tells apart (grpc-js's own `status` is not a direct dependency). */
export const GrpcCode = {
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

/** A server's answer: its status code and its own words (`details`, without grpc-js's "3 INVALID_ARGUMENT: " prefix). */
export interface GrpcCause {
  code: number;
  details: string;
}

/** The error and its causes, outermost first (at most 10): the SDK wraps the server's answer in its own error. */
export function* causeChain(err: unknown): Generator<unknown> {
  for (
    let e = err, depth = 0;
    e !== undefined && e !== null && depth < 10;
    e = (e as { cause?: unknown }).cause, depth++
  )
    yield e;
}

/** The first gRPC error in `err`'s cause chain, e.g. under the SDK's "Failed to start Workflow"; undefined when none is. */
export function grpcCause(err: unknown): GrpcCause | undefined {
  for (const e of causeChain(err)) {
    if (isGrpcServiceError(e)) return { code: e.code, details: e.details || e.message };
  }
  return undefined;
}
