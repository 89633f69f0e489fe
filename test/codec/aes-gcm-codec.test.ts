import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { AesGcmCodec, ENCRYPTED_ENCODING, METADATA_ENCRYPTION_KEY_ID } from '../../src/codec/aes-gcm-codec';
import { EncryptionKeyError } from '../../src/codec/encryption-key-error';
import { generateEncryptionKey, parseEncryptionKeys } from '../../src/codec/encryption-keys';
import { PayloadDecryptionError } from '../../src/codec/payload-decryption-error';

const k1 = generateEncryptionKey('k1');
const k2 = generateEncryptionKey('k2');
const text = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? []).toString('utf8');
const toPayload = (value: unknown): Payload => defaultPayloadConverter.toPayload(value);

describe('AesGcmCodec', () => {
  it('round-trips payloads, hiding the data and marking the key id', async () => {
    const codec = new AesGcmCodec(parseEncryptionKeys(k1));
    const original = [toPayload({ task: 'SECRET-MARKER' }), toPayload(null), toPayload(new Uint8Array([0, 1, 2]))];
    const encoded = await codec.encode(original);

    expect(encoded).toHaveLength(3);
    for (const payload of encoded) {
      expect(text(payload.metadata?.encoding)).toBe(ENCRYPTED_ENCODING);
      expect(text(payload.metadata?.[METADATA_ENCRYPTION_KEY_ID])).toBe('k1');
      expect(text(payload.data)).not.toContain('SECRET-MARKER');
      expect(text(payload.data)).not.toContain('json/plain');
    }
    // A fresh IV per payload: the same value never encrypts to the same bytes.
    const again = await codec.encode([original[0]!]);
    expect(Buffer.from(again[0]!.data!).equals(Buffer.from(encoded[0]!.data!))).toBe(false);

    const decoded = await codec.decode(encoded);
    expect(decoded.map((p) => defaultPayloadConverter.fromPayload(p))).toEqual([
      { task: 'SECRET-MARKER' },
      null,
      new Uint8Array([0, 1, 2]),
    ]);
    expect(text(decoded[0]!.metadata?.encoding)).toBe('json/plain');
  });

  it('decodes with an older key after a new current key is added first (rotation)', async () => {
    const before = new AesGcmCodec(parseEncryptionKeys(k1));
    const stored = await before.encode([toPayload('written under k1')]);
    const after = new AesGcmCodec(parseEncryptionKeys(`${k2},${k1}`));

    expect(defaultPayloadConverter.fromPayload((await after.decode(stored))[0]!)).toBe('written under k1');
    const fresh = await after.encode([toPayload('written under k2')]);
    expect(text(fresh[0]!.metadata?.[METADATA_ENCRYPTION_KEY_ID])).toBe('k2');
    await expect(before.decode(fresh)).rejects.toThrow(PayloadDecryptionError);
  });

  it('names the key id when the key is not in the ring', async () => {
    const stored = await new AesGcmCodec(parseEncryptionKeys(k2)).encode([toPayload('x')]);
    const other = new AesGcmCodec(parseEncryptionKeys(k1));
    const refused = await other.decode(stored).then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(refused).toMatch(/encrypted with key "k2", which is not in the key ring/);
    // The ring's own key ids are not given away.
    expect(refused).not.toContain('k1');
  });

  it('rejects tampered ciphertext, and a same-id key with different bytes, naming the key id', async () => {
    const codec = new AesGcmCodec(parseEncryptionKeys(k1));
    const [stored] = await codec.encode([toPayload('untouched')]);
    const data = Buffer.from(stored!.data!);
    data[20] = data[20]! ^ 0x01;
    await expect(codec.decode([{ ...stored!, data }])).rejects.toThrow(/failed authentication with key "k1"/);

    const impostor = new AesGcmCodec(parseEncryptionKeys(generateEncryptionKey('k1')));
    await expect(impostor.decode([stored!])).rejects.toThrow(PayloadDecryptionError);
  });

  it('passes payloads that are not encrypted through untouched', async () => {
    const codec = new AesGcmCodec(parseEncryptionKeys(k1));
    const plain = toPayload({ old: 'history' });
    const [decoded] = await codec.decode([plain]);
    expect(decoded).toBe(plain);
  });
});

describe('parseEncryptionKeys', () => {
  it('takes the first key as current and keeps the rest for decryption', () => {
    const ring = parseEncryptionKeys(` ${k2} , ${k1} `);
    expect(ring.currentKeyId).toBe('k2');
    expect([...ring.keys.keys()]).toEqual(['k2', 'k1']);
    expect(ring.keys.get('k1')).toHaveLength(32);
  });

  it('rejects wrong-sized keys naming the id and never the key', () => {
    const short = Buffer.alloc(16, 7).toString('base64');
    const error = (() => {
      try {
        parseEncryptionKeys(`weak:${short}`);
      } catch (err) {
        return err as Error;
      }
      throw new Error('expected a throw');
    })();
    expect(error).toBeInstanceOf(EncryptionKeyError);
    expect(error.message).toBe('encryption key "weak" is 16 bytes; AES-256 needs 32');
    expect(error.message).not.toContain(short);
  });

  it('rejects entries without an id, duplicate ids, bad base64 and an empty ring', () => {
    const bare = k1.slice(3);
    expect(() => parseEncryptionKeys(bare)).toThrow(/encryption key #1 needs an id/);
    expect(() => parseEncryptionKeys(bare)).not.toThrow(bare);
    expect(() => parseEncryptionKeys(`${k1},${k1}`)).toThrow('encryption key id "k1" appears twice');
    expect(() => parseEncryptionKeys('k1:not*base64')).toThrow('encryption key "k1" is not standard base64');
    expect(() => parseEncryptionKeys(' , ')).toThrow(EncryptionKeyError);
  });
});
