import { createHash } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from '../domain/approval/arguments-hash';

/**
 * The tamper-evidence of an exported report: every step is hashed together with the hash before
 * it (a hash chain that starts from the hash of the report's other sections), so changing,
 * removing or reordering any step changes every hash after it and the final one. A signature
 * over the final hash, when a key is configured, proves who exported it.
 */
export const INTEGRITY_ALGORITHM = 'sha256-chain-v1';

/** Prefixed to the final hash before signing, so an export signature can never pass as another signed message. */
export const EXPORT_SIGNATURE_DOMAIN = 'thoughtline.audit-export.v1\n';

export const ExportSignature = z.object({
  algorithm: z.literal('ed25519'),
  keyId: z.string().min(1).max(200),
  /** base64url of the raw 32-byte public key; trust it only when it matches a key you hold. */
  publicKey: z.string().min(1).max(200),
  /** base64url of the 64-byte signature over the domain line and `finalHash`. */
  value: z.string().min(1).max(200),
});
export type ExportSignature = z.infer<typeof ExportSignature>;

export const ReportIntegrity = z.object({
  algorithm: z.literal(INTEGRITY_ALGORITHM),
  /** One hash per section other than the steps (run, outcome, costs, …), so a check names the section changed. */
  sections: z.record(z.string(), z.string()),
  /** The chain's start: the hash of the section hashes. */
  headHash: z.string(),
  /** In step order: hash_i = sha256(hash_{i-1} "\n" canonical(step_i)), hash_0 = headHash. */
  steps: z.array(z.object({ stepNumber: z.number().int(), stepId: z.string(), hash: z.string() })),
  /** Child reports' final hashes, in order: a sub-agent's report is chained into its parent's. */
  children: z.array(z.object({ workflowId: z.string(), finalHash: z.string() })).default([]),
  finalHash: z.string(),
  signature: ExportSignature.optional(),
});
export type ReportIntegrity = z.infer<typeof ReportIntegrity>;

export const sha256Hex = (text: string): string => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

/** The value as it reads back from a JSON file: undefined fields gone, so a sealed report and its file hash alike. */
const asStored = (value: unknown): unknown => (value === undefined ? null : JSON.parse(JSON.stringify(value)));

/** Hashes of a report's sections other than its steps, children and integrity, by name. */
export function sectionHashes(report: Record<string, unknown>): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const name of Object.keys(report).sort()) {
    if (name === 'steps' || name === 'children' || name === 'integrity') continue;
    hashes[name] = sha256Hex(canonicalJson(asStored(report[name])));
  }
  return hashes;
}

export const headHashOf = (sections: Record<string, string>): string => sha256Hex(canonicalJson(sections));

export const stepHash = (previous: string, step: unknown): string =>
  sha256Hex(`${previous}\n${canonicalJson(asStored(step))}`);

/** The last link: the last step's hash followed by each child's final hash, in order. */
export function finalHashOf(
  lastStepHash: string,
  children: ReadonlyArray<{ workflowId: string; finalHash: string }>,
): string {
  return children.length === 0 ? lastStepHash : sha256Hex(`${lastStepHash}\n${canonicalJson(children)}`);
}
