/** Most UTF-8 bytes one content attribute carries (4 KiB); longer text is cut and marked. */
export const MAX_CONTENT_BYTES = 4096;

/** Appended to text that was cut, inside the bound. */
export const CUT_MARKER = ' …[cut]';

/**
 * `text` within `maxBytes` of UTF-8: whole when it fits, else its first code points followed by
 * CUT_MARKER, the two together within the bound (a code point is never split).
 */
export function boundedText(text: string, maxBytes = MAX_CONTENT_BYTES): { text: string; cut: boolean } {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return { text, cut: false };
  const room = maxBytes - Buffer.byteLength(CUT_MARKER, 'utf8');
  let used = 0;
  let end = 0;
  for (const char of text) {
    const bytes = Buffer.byteLength(char, 'utf8');
    if (used + bytes > room) break;
    used += bytes;
    end += char.length;
  }
  return { text: `${text.slice(0, end)}${CUT_MARKER}`, cut: true };
}
