/**
 * The longest prefix of `bytes` of at most `max` bytes that ends on a UTF-8 character boundary:
 * a character whose bytes straddle the cut is dropped whole, never split into U+FFFD.
 */
export function cutUtf8(bytes: Buffer, max: number): Buffer {
  if (bytes.length <= max) return bytes;
  // Walk back over continuation bytes (10xxxxxx) to the lead byte of the character at the cut.
  let start = max;
  while (start > 0 && max - start < 4 && (bytes[start]! & 0xc0) === 0x80) start--;
  return bytes.subarray(0, start);
}
