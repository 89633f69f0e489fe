import { readSigningKeyring } from '../../server/signing/load-decision-signer';
import type { ExportSigningKey } from '../../audit';

/**
 * The key exports are signed with: the first key of a keyring file in the decision-signing format
 * (`thoughtline signing-key` makes entries), with the same checks (mode 600, well-formed keys).
 */
export function loadExportSigningKey(file: string): ExportSigningKey & { publicKey: string } {
  const [first] = readSigningKeyring(file);
  return { keyId: first!.keyId, seed: first!.seed, publicKey: first!.publicKey };
}
