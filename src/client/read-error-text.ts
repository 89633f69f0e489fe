import { WorkflowNotFoundError } from '@temporalio/client';
import { ENCRYPTED_ENCODING } from '../codec/aes-gcm-codec';
import { PayloadDecryptionError } from '../codec/payload-decryption-error';

/** Said instead of the payload converter's "Unknown encoding: binary/encrypted" when this process has no keys. */
export const ENCRYPTED_WITHOUT_KEYS =
  "the run's payloads are encrypted and this process has no keys to read them: set THOUGHTLINE_ENCRYPTION_KEYS " +
  'to the keys the run was written with (see docs/security.md, "Encryption at rest")';

/** The error and its causes, outermost first: the SDK wraps a converter's error in its own. */
function* causes(err: unknown): Generator<unknown> {
  for (
    let e = err, depth = 0;
    e !== undefined && e !== null && depth < 10;
    e = (e as { cause?: unknown }).cause, depth++
  )
    yield e;
}

/** Why an encrypted run could not be read, or undefined when the error is about something else. */
export function encryptionProblem(err: unknown): string | undefined {
  for (const e of causes(err)) {
    const message = e instanceof Error ? e.message : String(e);
    if (message.includes(`Unknown encoding: ${ENCRYPTED_ENCODING}`)) return ENCRYPTED_WITHOUT_KEYS;
    if (e instanceof PayloadDecryptionError || (e as Error)?.name === 'PayloadDecryptionError') {
      return `${message}: set THOUGHTLINE_ENCRYPTION_KEYS to include the key the run was written with (see docs/security.md, "Encryption at rest")`;
    }
  }
  return undefined;
}

/** Why a run could not be read, short enough to stand in for it in a tree or an expanded chain. */
export const readErrorText = (err: unknown): string =>
  err instanceof WorkflowNotFoundError
    ? 'not found'
    : (encryptionProblem(err) ?? (err instanceof Error ? err.message : String(err)));
