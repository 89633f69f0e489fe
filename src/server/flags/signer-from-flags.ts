import type { DecisionSigner } from '../signing/decision-signer';
import { loadDecisionSigner } from '../signing/load-decision-signer';

/** The signer of `serve --signing-keys FILE`: every decision the server sends is signed with the file's keys. */
export async function signerFromFlags(file: string): Promise<DecisionSigner> {
  return loadDecisionSigner(file);
}
