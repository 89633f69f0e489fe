import { WorkflowNotFoundError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { PayloadDecryptionError } from '../../src/codec/payload-decryption-error';
import { ENCRYPTED_WITHOUT_KEYS, readErrorText } from '../../src/client/errors/read-error-text';

describe('readErrorText', () => {
  it("says an encrypted run needs THOUGHTLINE_ENCRYPTION_KEYS, however deep the converter's error is wrapped", () => {
    const converter = new Error('Unknown encoding: binary/encrypted');
    expect(readErrorText(converter)).toBe(ENCRYPTED_WITHOUT_KEYS);
    expect(readErrorText(new Error('Failed to query Workflow', { cause: converter }))).toBe(ENCRYPTED_WITHOUT_KEYS);
    expect(ENCRYPTED_WITHOUT_KEYS).toContain('set THOUGHTLINE_ENCRYPTION_KEYS');
  });

  it('a key the ring lacks names the key and the variable', () => {
    const text = readErrorText(
      new PayloadDecryptionError('payload was encrypted with key "k2", which is not in the key ring'),
    );
    expect(text).toBe(
      'payload was encrypted with key "k2", which is not in the key ring: set THOUGHTLINE_ENCRYPTION_KEYS to include the key the run was written with (see docs/security.md, "Encryption at rest")',
    );
  });

  it('keeps other errors as they are, and a missing run short', () => {
    expect(readErrorText(new Error('deadline exceeded'))).toBe('deadline exceeded');
    expect(readErrorText(new WorkflowNotFoundError('workflow not found', 'agent-1', undefined))).toBe('not found');
  });
});
