import { ApiError } from '../api-error';
import type { A2aErrors } from './a2a-sdk';

type A2AError = InstanceType<A2aErrors['A2AError']>;

/**
 * Every failure of the A2A request handler, as an A2A error the SDK's transport maps to its
 * JSON-RPC code: the API's coded errors keep their words (they say what to do next); anything
 * else is logged with its stack and answered as an internal error with no detail, because the SDK
 * would otherwise send a plain error's message to the caller.
 */
export function toA2aError(errors: A2aErrors, err: unknown, log: (line: string) => void, where: string): A2AError {
  if (err instanceof errors.A2AError) return err;
  if (err instanceof ApiError) {
    switch (err.code) {
      case 'not_found':
        return new errors.TaskNotFoundError(err.message);
      case 'bad_request':
      case 'payload_too_large':
        return new errors.RequestMalformedError(err.message);
      case 'conflict':
      case 'forbidden':
        return new errors.UnsupportedOperationError(err.message);
      case 'unavailable':
      case 'too_many_requests':
      case 'unauthenticated':
      case 'internal':
        return new errors.A2AError(err.message);
    }
  }
  log(`A2A ${where}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return new errors.A2AError('Internal error; the server log has the details.');
}
