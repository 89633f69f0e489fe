import path from 'node:path';
import type { DataConverter } from '@temporalio/common';
import { AesGcmCodec } from './aes-gcm-codec';
import type { EncryptionKeyRing } from './encryption-keys';

/**
 * File exporting `failureConverter`. Temporal loads failure converters only by path (the
 * workflow bundle needs it too), so this names the sibling file in whichever tree is running:
 * `.js` from dist/, `.ts` from src/ (Node 20.19+ requires that file as JavaScript; see there).
 */
export const FAILURE_CONVERTER_PATH = path.join(__dirname, `failure-converter${path.extname(__filename)}`);

/**
 * Encrypts every payload and failure message at rest. Give the same converter to the Worker
 * (`dataConverter` in its options) and to every Client; a prebuilt workflow bundle also needs
 * `bundleWorkflowCode({ failureConverterPath: FAILURE_CONVERTER_PATH })`.
 */
export function createDataConverter(keys: EncryptionKeyRing): DataConverter {
  return { payloadCodecs: [new AesGcmCodec(keys)], failureConverterPath: FAILURE_CONVERTER_PATH };
}
