/**
 * SHA-256 (FIPS 180-4) of a string's UTF-8 bytes, as lowercase hex, for the workflow sandbox.
 * The sandbox resolves every global name (Uint8Array, DataView, TextEncoder) through the V8
 * context's interceptors, at about 135 ns a lookup against 3 in plain Node: a hash made of a
 * dozen such lookups and allocations (as @noble/hashes' is, with its checks) costs more than
 * hashing a short message. So this keeps every builtin it needs in module scope, with one
 * encoder, and encodes the text into one buffer it then reads block by block. Checked against
 * Node's crypto.
 */

const Words = Int32Array;
const Bytes = Uint8Array;
const View = DataView;
const encoder = new TextEncoder();

// prettier-ignore
const K = new Words([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** Only ASCII: one native scan decides the fast path. */
const ASCII = /^[\x00-\x7f]*$/;

/** The initial hash value (FIPS 180-4, 5.3.3). */
// prettier-ignore
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19] as const;

const HEX: readonly string[] = Array.from({ length: 256 }, (_, b) => (b < 16 ? '0' : '') + b.toString(16));

/** The text's UTF-8 bytes, padded as SHA-256 pads them, in whole 64-byte blocks. */
function paddedBytes(text: string): DataView {
  // At most 3 bytes per UTF-16 unit, then 0x80 and the 8-byte length, in whole 64-byte blocks.
  const most = ASCII.test(text) ? text.length : text.length * 3;
  const bytes = new Bytes(((most + 9 + 63) >>> 6) << 6);
  // Native, and as TextEncoder encodes: a lone surrogate becomes U+FFFD.
  const { written } = encoder.encodeInto(text, bytes);
  bytes[written] = 0x80;
  const end = ((written + 9 + 63) >>> 6) << 6;
  const view = new View(bytes.buffer, 0, end);
  const bits = written * 8;
  view.setUint32(end - 8, (bits / 0x100000000) >>> 0);
  view.setUint32(end - 4, bits >>> 0);
  return view;
}

/** SHA-256 of `text`'s UTF-8 bytes as 64 lowercase hex digits. */
export function sha256HexOfText(text: string): string {
  const m = paddedBytes(text);
  const w = new Words(64);
  const state = new Words(INITIAL);
  for (let at = 0; at < m.byteLength; at += 64) compress(state, w, m, at);
  let out = '';
  for (let i = 0; i < 8; i += 1) out += hex(state[i]!);
  return out;
}

/** The 64-byte block at byte `at` of `m` folded into `state`; `w` is scratch. */
function compress(state: Int32Array, w: Int32Array, m: DataView, at: number): void {
  for (let t = 0; t < 16; t += 1) w[t] = m.getInt32(at + t * 4);
  for (let t = 16; t < 64; t += 1) {
    const x = w[t - 15]!;
    const y = w[t - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let t = 0; t < 64; t += 1) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

const hex = (word: number): string =>
  HEX[(word >>> 24) & 0xff]! + HEX[(word >>> 16) & 0xff]! + HEX[(word >>> 8) & 0xff]! + HEX[word & 0xff]!;
