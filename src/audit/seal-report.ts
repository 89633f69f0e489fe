import { ed25519 } from '@noble/curves/ed25519';
import { utf8ToBytes } from '@noble/hashes/utils';
import { base64UrlEncode } from '../domain/approval/signed-decision';
import {
  EXPORT_SIGNATURE_DOMAIN,
  finalHashOf,
  headHashOf,
  INTEGRITY_ALGORITHM,
  sectionHashes,
  stepHash,
  type ReportIntegrity,
} from './report-integrity';

/** A key an export is signed with: the first entry of a decision-signing keyring has this shape. */
export interface ExportSigningKey {
  keyId: string;
  /** The raw 32-byte Ed25519 seed. */
  seed: Uint8Array;
}

interface Sealable {
  steps: ReadonlyArray<{ stepNumber: number; stepId: string }>;
  children?: ReadonlyArray<{ run: { workflowId: string }; integrity?: ReportIntegrity }>;
}

/**
 * The report with its `integrity` block: section hashes, the step hash chain, the children's
 * final hashes (children must be sealed first) and, with a key, a signature over the final hash.
 * Pure apart from the hashing: the same report always seals to the same hashes.
 */
export function sealReport<T extends Sealable>(report: T, key?: ExportSigningKey): T & { integrity: ReportIntegrity } {
  const { integrity: _ignored, ...unsealed } = report as T & { integrity?: unknown };
  const sections = sectionHashes(unsealed as Record<string, unknown>);
  const headHash = headHashOf(sections);
  let previous = headHash;
  const steps = report.steps.map((step) => {
    previous = stepHash(previous, step);
    return { stepNumber: step.stepNumber, stepId: step.stepId, hash: previous };
  });
  const children = (report.children ?? []).map((child) => {
    if (!child.integrity) throw new TypeError(`child report ${child.run.workflowId} must be sealed before its parent`);
    return { workflowId: child.run.workflowId, finalHash: child.integrity.finalHash };
  });
  const finalHash = finalHashOf(previous, children);
  const signature = key
    ? {
        algorithm: 'ed25519' as const,
        keyId: key.keyId,
        publicKey: base64UrlEncode(ed25519.getPublicKey(key.seed)),
        value: base64UrlEncode(ed25519.sign(utf8ToBytes(`${EXPORT_SIGNATURE_DOMAIN}${finalHash}`), key.seed)),
      }
    : undefined;
  const integrity: ReportIntegrity = {
    algorithm: INTEGRITY_ALGORITHM,
    sections,
    headHash,
    steps,
    children,
    finalHash,
    ...(signature ? { signature } : {}),
  };
  return { ...report, integrity };
}
