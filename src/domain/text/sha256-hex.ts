import { sha256HexOfText } from './sha256-words';

/** SHA-256 of a text's UTF-8 bytes (a lone surrogate as U+FFFD), as lowercase hex. */
export type Sha256Hex = (text: string) => string;

/** Pure JS, so the workflow sandbox and any client can run it (sha256-words.ts says why not noble's). */
const pureSha256Hex: Sha256Hex = sha256HexOfText;

let implementation = pureSha256Hex;

/** This process's SHA-256: the same digest everywhere, only as fast as `useSha256Hex` made it. */
export const sha256Hex = (text: string): string => implementation(text);

/** Texts an implementation must hash as the pure one does before it may replace it. */
const PROBES: readonly string[] = ['', 'abc', `é ✓ 𝄞 \ud800 ${'x'.repeat(300)}`];

/**
 * Replaces the implementation for this process: a worker's activities use Node's native one
 * (3-5x faster on the conversations they hash). Refused unless it agrees with the pure one on
 * the probes: a hash the workflow and its worker disagree on would fail every call by reference.
 */
export function useSha256Hex(candidate: Sha256Hex): void {
  const differs = PROBES.find((text) => candidate(text) !== pureSha256Hex(text));
  if (differs !== undefined)
    throw new TypeError(`That SHA-256 disagrees with the pure one on ${JSON.stringify(differs)}.`);
  implementation = candidate;
}
