import fs from 'node:fs';
import path from 'node:path';
import type { SignedDecisionPolicy } from '../../domain/approval/signed-decision';
import type { DecisionSigner } from '../../server/signing/decision-signer';
import { createKeyringFile } from '../../server/signing/create-keyring-file';
import { loadDecisionSigner } from '../../server/signing/load-decision-signer';

/*
 * The decision-signing keyring of this machine's Thoughtline: `serve` and `mcp-server --http`
 * always sign with one (so the roles their tokens and OIDC establish are verified by the runs
 * they start), and the CLI's decision commands sign with it when they can read it (its holder is
 * as trusted as the server). One file, kept: a run accepts only the keys it was started with, so
 * a key made afresh at each start would orphan every open run's decisions.
 */

/** `--signing-keys`, else THOUGHTLINE_SIGNING_KEYS, else `.thoughtline/signing-keys.json` under the working directory. */
export const defaultSigningKeysFile = (): string =>
  process.env.THOUGHTLINE_SIGNING_KEYS || path.join('.thoughtline', 'signing-keys.json');

/**
 * The signer of a server: the keyring given, else the default one, written with a fresh key on
 * first start (said in one line through `log`). A keyring that cannot be used throws KeyringError.
 */
export function serverSigner(given: string | undefined, log: (line: string) => void): DecisionSigner {
  const file = path.resolve(given ?? defaultSigningKeysFile());
  if (given === undefined && createKeyringFile(file))
    log(
      `created ${file} with a fresh key for signing decisions: runs started here verify the roles of the people who decide with it; keep it (open runs need it after a restart)`,
    );
  return loadDecisionSigner(file);
}

/**
 * The signer of a decision sent from the command line: the keyring given (which must be usable),
 * else the default one when it exists and this user may read it, else none (the decision goes
 * unsigned and its roles are claimed, not verified).
 */
export function deciderSigner(given: string | undefined): DecisionSigner | undefined {
  if (given !== undefined) return loadDecisionSigner(path.resolve(given));
  const file = path.resolve(defaultSigningKeysFile());
  try {
    fs.accessSync(file, fs.constants.R_OK);
  } catch {
    return undefined;
  }
  return loadDecisionSigner(file);
}

/**
 * What `thoughtline run` gives its run: the readable keyring's public keys (`required: false`:
 * unsigned decisions still reach it, their roles claimed only), so the decisions this machine's
 * CLI and serve sign for it count their roles; nothing without a keyring.
 */
export function runSignedDecisions(): { signedDecisions?: SignedDecisionPolicy } {
  const signer = deciderSigner(undefined);
  return signer ? { signedDecisions: { publicKeys: signer.publicKeys(), required: false } } : {};
}
