import type { DecisionSigner } from './signing/decision-signer';

/** The signer of `serve --signing-keys FILE`: every decision the server sends is signed with the file's keys. */
export async function signerFromFlags(file: string): Promise<DecisionSigner> {
  // @ts-expect-error the module arrives with the trust branch; this line goes at that merge.
  const { loadDecisionSigner } = (await import('./signing/load-decision-signer')) as { loadDecisionSigner: (file: string) => DecisionSigner };
  return loadDecisionSigner(file);
}
