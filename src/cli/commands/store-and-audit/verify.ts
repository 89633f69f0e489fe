import type { CommandSpec } from '../../spec/command-line';
import { texts } from '../../spec/flags';
import { readRegularFile } from '../../../files/read-regular-file';
import { RegularFileError } from '../../../files/regular-file-error';
import { allProblems, reportsIn, verifyReport, type ReportCheck } from '../../../audit';
import { UsageError } from '../../spec/usage-error';

function describe(check: ReportCheck): string {
  const sig = check.signature;
  if (check.anchor === 'final_hash')
    return `its final hash is the one you gave${sig.state === 'unsigned' ? '' : `; ${signatureText(check)}`}`;
  return signatureText(check);
}

function signatureText(check: ReportCheck): string {
  const sig = check.signature;
  switch (sig.state) {
    case 'unsigned':
      return 'unsigned (the hash chain shows edits; only a signature or a final hash kept elsewhere shows the whole was not rewritten)';
    case 'trusted':
      return `signed by trusted key ${sig.keyId}`;
    case 'self_consistent':
      return `signature valid for key ${sig.keyId} (${sig.publicKey}); pass --public-key to check it is a key you trust`;
    case 'invalid':
      return `signature INVALID: ${sig.reason}`;
  }
}

/**
 * `verify FILE (--public-key KEY | --final-hash HASH)…`: checks a JSON export's hash chain (every
 * step, every section, every sub-agent's report) and its signature; with keys, the signature must
 * be by one of them; with final hashes, the report's must be one of them. Prints each run's
 * verdict; exit 0 only when every report is intact and anchored by a key or a hash the checker
 * gave: a report that only vouches for itself can be edited and sealed again by anyone.
 */
/** Largest export read: a long run's chain with its sub-agents' reports. */
const MAX_EXPORT_BYTES = 256 * 1024 * 1024;

export function verifyExport(file: string, options: { publicKeys?: string[]; finalHashes?: string[] } = {}): number {
  let text: string;
  try {
    text = readRegularFile(file, MAX_EXPORT_BYTES).toString('utf8');
  } catch (err) {
    if (err instanceof RegularFileError) throw new UsageError(`${file}: ${err.message}.`);
    throw new UsageError(`Cannot read ${file}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    process.stdout.write(
      `✗ ${file} is not a JSON export. verify checks reports from \`thoughtline export --format json\`; a markdown report lists its final hash at the end, to compare with the JSON one.\n`,
    );
    return 1;
  }
  let intact = true;
  for (const report of reportsIn(json)) {
    const check = verifyReport(report, {
      ...(options.publicKeys?.length ? { trustedKeys: options.publicKeys } : {}),
      ...(options.finalHashes?.length ? { finalHashes: options.finalHashes } : {}),
    });
    const problems = allProblems(check);
    if (problems.length === 0 && check.anchor === 'none') {
      intact = false;
      process.stdout.write(
        `✗ ${check.workflowId}: consistent, but not verified: nothing ties it to its author (${signatureText(check)}). Anyone who edits a report can seal it again; pass --public-key with the key you trust, or --final-hash with the final hash printed when it was exported (${check.finalHash}).\n`,
      );
      continue;
    }
    if (problems.length === 0) {
      process.stdout.write(`✓ ${check.workflowId}: intact; final hash ${check.finalHash}; ${describe(check)}\n`);
      continue;
    }
    intact = false;
    process.stdout.write(
      `✗ ${check.workflowId}: ${problems[0]}\n${problems
        .slice(1)
        .map((p) => `  also: ${p}\n`)
        .join('')}`,
    );
  }
  return intact ? 0 : 1;
}

export const VERIFY_COMMAND: CommandSpec = {
  name: 'verify',
  group: 'Store and audit',
  summary: 'check a JSON export: its seal and its signature',
  description:
    'Check a JSON export: it names the first altered step or section, and passes only when signed by a key you give, or when its final hash is one you kept from the export.',
  usage: ['verify <file> (--public-key KEY | --final-hash HASH)...'],
  examples: [
    'thoughtline verify report.json --public-key 3Xk',
    'thoughtline verify unsigned.json --final-hash sha256:9b0e',
  ],
  args: [{ name: '<file>', needs: 'the JSON report to check (from export --format json)' }],
  options: {
    'public-key': texts('KEY', 'a public key the report may be signed with'),
    'final-hash': texts('HASH', 'a final hash kept from the export'),
  },
  run: async (l) =>
    verifyExport(l.args[0]!, { publicKeys: l.texts('public-key') ?? [], finalHashes: l.texts('final-hash') ?? [] }),
};
