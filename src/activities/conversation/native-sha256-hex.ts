import { createHash } from 'node:crypto';
import type { Sha256Hex } from '../../domain/text/sha256-hex';

/** Node's native SHA-256: the pure one's digest (useSha256Hex checks), 3-5x faster on a conversation's messages. */
export const nativeSha256Hex: Sha256Hex = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
