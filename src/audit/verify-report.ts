import { ed25519 } from '@noble/curves/ed25519';
import { utf8ToBytes } from '@noble/hashes/utils';
import { base64UrlDecode } from '../domain/approval/signed-decision';
import {
  EXPORT_SIGNATURE_DOMAIN,
  finalHashOf,
  headHashOf,
  ReportIntegrity,
  sectionHashes,
  stepHash,
} from './report-integrity';

export type SignatureCheck =
  | { state: 'unsigned' }
  /** Valid, by a key among the ones the checker trusts. */
  | { state: 'trusted'; keyId: string }
  /** Valid for the key the report names, but no trusted key was given to compare it with. */
  | { state: 'self_consistent'; keyId: string; publicKey: string }
  | { state: 'invalid'; reason: string };

export interface ReportCheck {
  workflowId: string;
  finalHash?: string;
  signature: SignatureCheck;
  /**
   * What ties the report to its author, beyond its own hashes: a signature by a trusted key, or a
   * final hash the checker kept elsewhere; `none` when only the report vouches for itself, which
   * anyone who edits a report can make it do.
   */
  anchor: 'trusted_key' | 'final_hash' | 'none';
  /** What was found altered, in report order; the first names the first altered step or section. */
  problems: string[];
  children: ReportCheck[];
}

export interface VerifyOptions {
  /** Public keys (base64url, raw 32 bytes) the checker trusts; with any, an unsigned or untrusted report fails. */
  trustedKeys?: readonly string[];
  /** Final hashes the checker kept from the export (`sha256:…`); with any, a report whose final hash is not one of them fails. */
  finalHashes?: readonly string[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks a sealed report as read back from its file: every section and step against the hash
 * chain, children recursively, then the signature. Never throws on any input: what it cannot
 * read is a problem, so a report that is not positively intact fails.
 */
export function verifyReport(value: unknown, options: VerifyOptions = {}, path = ''): ReportCheck {
  const report = isRecord(value) ? value : {};
  const run = isRecord(report.run) ? report.run : {};
  const workflowId = typeof run.workflowId === 'string' ? run.workflowId : '(unknown run)';
  const where = path ? `${path}: ` : '';
  const problems: string[] = [];
  const parsed = ReportIntegrity.safeParse(report.integrity);
  if (!isRecord(value))
    return {
      workflowId,
      signature: { state: 'unsigned' },
      anchor: 'none',
      problems: [`${where}not a report (a JSON object was expected)`],
      children: [],
    };
  if (!parsed.success)
    return {
      workflowId,
      signature: { state: 'unsigned' },
      anchor: 'none',
      problems: [`${where}no readable integrity block: the report was not sealed, or the block was changed`],
      children: [],
    };
  const integrity = parsed.data;

  if (headHashOf(integrity.sections) !== integrity.headHash)
    problems.push(`${where}the integrity block's section hashes were changed`);
  const actual = sectionHashes(report);
  for (const name of new Set([...Object.keys(actual), ...Object.keys(integrity.sections)])) {
    if (actual[name] === integrity.sections[name]) continue;
    problems.push(
      `${where}section "${name}" was ${!(name in actual) ? 'removed' : !(name in integrity.sections) ? 'added' : 'altered'}`,
    );
  }

  const steps = Array.isArray(report.steps) ? report.steps : [];
  if (!Array.isArray(report.steps)) problems.push(`${where}the steps are missing`);
  // The chain is recomputed from the stored head, so an altered section does not mask which step changed.
  let expected = integrity.headHash;
  for (let i = 0; i < Math.max(steps.length, integrity.steps.length); i++) {
    const recorded = integrity.steps[i];
    if (i >= steps.length) {
      problems.push(`${where}step ${recorded!.stepNumber} (${recorded!.stepId}) was removed, and every step after it`);
      break;
    }
    if (!recorded) {
      problems.push(`${where}${steps.length - i} step(s) were added after the last sealed step`);
      break;
    }
    expected = stepHash(expected, steps[i]);
    if (expected !== recorded.hash) {
      problems.push(
        `${where}step ${recorded.stepNumber} (${recorded.stepId}) was altered, removed or reordered: the first step whose hash does not match`,
      );
      break;
    }
  }

  const childReports = Array.isArray(report.children) ? report.children : [];
  // A child's final hash is chained into its parent's: the final hashes given are the parents'.
  const childOptions = options.trustedKeys ? { trustedKeys: options.trustedKeys } : {};
  const children = childReports.map((child, i) =>
    verifyReport(child, childOptions, `${path ? `${path} › ` : ''}sub-agent ${i + 1}`),
  );
  if (childReports.length !== integrity.children.length)
    problems.push(
      `${where}the report lists ${childReports.length} sub-agent report(s); ${integrity.children.length} were sealed`,
    );
  children.forEach((child, i) => {
    const sealed = integrity.children[i];
    if (sealed && child.finalHash !== sealed.finalHash)
      problems.push(`${where}sub-agent report ${sealed.workflowId} does not match the one sealed with this report`);
  });

  const lastHash = integrity.steps.at(-1)?.hash ?? integrity.headHash;
  if (finalHashOf(lastHash, integrity.children) !== integrity.finalHash)
    problems.push(`${where}the final hash does not follow from the step hashes`);
  const signature = checkSignature(integrity, options.trustedKeys);
  if (signature.state === 'invalid') problems.push(`${where}signature: ${signature.reason}`);
  if (options.trustedKeys?.length && signature.state === 'unsigned')
    problems.push(`${where}the report is not signed, and a trusted key was required`);
  const hashKept = options.finalHashes?.includes(integrity.finalHash) === true;
  if (options.finalHashes?.length && !hashKept)
    problems.push(`${where}its final hash ${integrity.finalHash} is not one of the final hashes given`);
  const anchor = signature.state === 'trusted' ? 'trusted_key' : hashKept ? 'final_hash' : 'none';
  return { workflowId, finalHash: integrity.finalHash, signature, anchor, problems, children };
}

function checkSignature(integrity: ReportIntegrity, trustedKeys: readonly string[] | undefined): SignatureCheck {
  const sig = integrity.signature;
  if (!sig) return { state: 'unsigned' };
  const publicKey = base64UrlDecode(sig.publicKey);
  const value = base64UrlDecode(sig.value);
  if (publicKey?.length !== 32 || value?.length !== 64)
    return { state: 'invalid', reason: 'the key or signature is not well-formed base64url Ed25519' };
  let valid = false;
  try {
    valid = ed25519.verify(value, utf8ToBytes(`${EXPORT_SIGNATURE_DOMAIN}${integrity.finalHash}`), publicKey);
  } catch {
    valid = false;
  }
  if (!valid) return { state: 'invalid', reason: `the signature by key "${sig.keyId}" does not match the final hash` };
  if (!trustedKeys?.length) return { state: 'self_consistent', keyId: sig.keyId, publicKey: sig.publicKey };
  if (!trustedKeys.includes(sig.publicKey))
    return { state: 'invalid', reason: `signed by key "${sig.keyId}", which is not one of the trusted keys` };
  return { state: 'trusted', keyId: sig.keyId };
}

/** Every problem of a check and its children's, depth first. */
export function allProblems(check: ReportCheck): string[] {
  return [...check.problems, ...check.children.flatMap(allProblems)];
}
