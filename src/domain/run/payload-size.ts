/**
 * Sizes that keep a run inside Temporal's payload limits (DESIGN: 2 MiB per payload). Pure and
 * sandbox-safe: workflow code measures with these, schemas refuse with them.
 */

/** Temporal's hard limit on one payload (a workflow's input, result, or a continue-as-new argument). */
export const TEMPORAL_PAYLOAD_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * The most a run hands to its next Temporal run, or returns as its result: 1.5 MiB, leaving half a
 * MiB under Temporal's limit for payload metadata, an encryption codec's overhead and the first
 * events of the next run. A handover is also refused at or over the run's `continueAsNewAtBytes`,
 * since the next run's history would start past its own threshold.
 */
export const MAX_CARRIED_BYTES = 1.5 * 1024 * 1024;

/**
 * Largest task, and largest system prompt, a run accepts (UTF-8 bytes). The task is carried three
 * times at every handover (the input, the conversation's first turn, the chain), so 256 KiB of
 * task is 768 KiB of every carried state, and never crosses MAX_CARRIED_BYTES on its own.
 */
export const MAX_TASK_BYTES = 256 * 1024;

/** The read-only cache a run keeps and carries: its entries' content and result, as JSON, add up to at most this. */
export const MAX_CACHE_BYTES = 256 * 1024;

/** Any UTF-16 code unit past ASCII (surrogates included). */
const NON_ASCII = /[\u0080-\uffff]/;

/** UTF-8 length of `text`, without TextEncoder (a lone surrogate counts 3, as its replacement character does). */
export function utf8Bytes(text: string): number {
  // Most payloads are ASCII: one native scan instead of a loop over every character (slow in the workflow sandbox).
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** Bytes of `value` as a JSON payload (what Temporal stores and counts). */
export function jsonBytes(value: unknown): number {
  return utf8Bytes(JSON.stringify(value) ?? 'null');
}
