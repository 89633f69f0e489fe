import { isGrpcServiceError, WorkflowNotFoundError } from '@temporalio/client';
import { ENCRYPTED_ENCODING } from '../../codec/aes-gcm-codec';
import { PayloadDecryptionError } from '../../codec/payload-decryption-error';
import { causeChain } from './grpc-cause';

/** Said instead of the payload converter's "Unknown encoding: binary/encrypted" when this process has no keys. */
export const ENCRYPTED_WITHOUT_KEYS =
  "the run's payloads are encrypted and this process has no keys to read them: set THOUGHTLINE_ENCRYPTION_KEYS " +
  'to the keys the run was written with (see docs/security.md, "Encryption at rest")';

/** Why an encrypted run could not be read, or undefined when the error is about something else. */
export function encryptionProblem(err: unknown): string | undefined {
  for (const e of causeChain(err)) {
    const message = e instanceof Error ? e.message : String(e);
    if (message.includes(`Unknown encoding: ${ENCRYPTED_ENCODING}`)) return ENCRYPTED_WITHOUT_KEYS;
    if (e instanceof PayloadDecryptionError || (e as Error)?.name === 'PayloadDecryptionError') {
      return `${message}: set THOUGHTLINE_ENCRYPTION_KEYS to include the key the run was written with (see docs/security.md, "Encryption at rest")`;
    }
  }
  return undefined;
}

/**
 * The error's message followed by the causes it wraps, each once: "Failed to start Workflow: could
 * not …: <the server's words>". A gRPC error speaks in its details, without grpc-js's code prefix.
 */
export function messageWithCauses(err: unknown): string {
  const parts: string[] = [];
  for (const e of causeChain(err)) {
    const text = isGrpcServiceError(e) ? e.details || e.message : e instanceof Error ? e.message : String(e);
    if (text && !parts.some((part) => part.includes(text))) parts.push(text);
    // The server's answer is the last word: what a gRPC error wraps, if anything, is the transport's.
    if (isGrpcServiceError(e)) break;
  }
  return parts.join(': ');
}

/** Why a run could not be read, short enough to stand in for it in a tree or an expanded chain. */
export const readErrorText = (err: unknown): string =>
  err instanceof WorkflowNotFoundError ? 'not found' : (encryptionProblem(err) ?? messageWithCauses(err));
