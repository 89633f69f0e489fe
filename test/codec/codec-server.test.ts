import { defaultPayloadConverter, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCodecServerEnv } from '../../src/cli/commands/serve-and-protocols/codec-server';
import { AesGcmCodec } from '../../src/codec/aes-gcm-codec';
import { startCodecServer, type CodecServer } from '../../src/codec/codec-server';
import { generateEncryptionKey, parseEncryptionKeys } from '../../src/codec/encryption-keys';

const TOKEN = 'test-token-0123456789abcdef';
const UI_ORIGIN = 'http://localhost:8233';
const codec = new AesGcmCodec(parseEncryptionKeys(generateEncryptionKey('k1')));
const toJson = (p: temporal.api.common.v1.IPayload) =>
  temporal.api.common.v1.Payload.toObject(temporal.api.common.v1.Payload.fromObject(p), { bytes: String });

/** Counts the codec's calls, so a refused request provably decoded nothing. */
const calls = { encode: 0, decode: 0 };
const countingCodec: PayloadCodec = {
  encode: (payloads) => (calls.encode++, codec.encode(payloads)),
  decode: (payloads) => (calls.decode++, codec.decode(payloads)),
};

let server: CodecServer;
let encryptedBody: string;
beforeAll(async () => {
  server = await startCodecServer({
    codec: countingCodec,
    token: TOKEN,
    corsOrigins: [UI_ORIGIN],
    maxBodyBytes: 64 * 1024,
  });
  const encrypted = await codec.encode([defaultPayloadConverter.toPayload({ secret: 'CODEC-SERVER-MARKER' })]);
  encryptedBody = JSON.stringify({ payloads: encrypted.map(toJson) });
});
afterAll(async () => server?.close());

const post = (path: string, headers: Record<string, string>, body = encryptedBody) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Namespace': 'default', ...headers },
    body,
  });

const decodedData = async (res: Response): Promise<unknown[]> => {
  const json = (await res.json()) as { payloads: Array<{ metadata: Record<string, string>; data: string }> };
  return json.payloads.map((p) => {
    expect(Buffer.from(p.metadata.encoding!, 'base64').toString()).toBe('json/plain');
    return JSON.parse(Buffer.from(p.data, 'base64').toString('utf8'));
  });
};

describe('codec server', () => {
  it('refuses without the token or with a wrong one, and decodes nothing', async () => {
    const before = { ...calls };
    const attempts: Array<Record<string, string>> = [
      {},
      { Authorization: 'Bearer wrong-token' },
      { Authorization: `Basic ${TOKEN}` },
      { Authorization: `Bearer ${TOKEN}x` },
    ];
    for (const headers of attempts) {
      const res = await post('/decode', headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      const body = await res.text();
      expect(JSON.parse(body)).toEqual({ error: 'missing or wrong codec token' });
      expect(body).not.toContain('CODEC-SERVER-MARKER');
    }
    expect((await post('/wrong-token/decode', {})).status).toBe(401);
    expect((await post('/encode', {})).status).toBe(401);
    expect(calls).toEqual(before);
  });

  it('decodes with the bearer token, or with the token as the endpoint path prefix (for the Web UI)', async () => {
    const viaHeader = await post('/decode', { Authorization: `Bearer ${TOKEN}` });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.headers.get('content-type')).toBe('application/json');
    expect(await decodedData(viaHeader)).toEqual([{ secret: 'CODEC-SERVER-MARKER' }]);

    const viaPath = await post(`/${TOKEN}/decode`, {});
    expect(await decodedData(viaPath)).toEqual([{ secret: 'CODEC-SERVER-MARKER' }]);
    // The CLI's per-namespace templating (`/default/decode`) still works with the header.
    expect((await post('/default/decode', { Authorization: `bearer ${TOKEN}` })).status).toBe(200);
  });

  it('decodes payload by payload: one it cannot read comes back as it was, and the others still decode', async () => {
    const otherRing = new AesGcmCodec(parseEncryptionKeys(generateEncryptionKey('k9')));
    const [foreign] = await otherRing.encode([defaultPayloadConverter.toPayload('not ours')]);
    const [ours] = await codec.encode([defaultPayloadConverter.toPayload({ secret: 'CODEC-SERVER-MARKER' })]);
    const [later] = await codec.encode([defaultPayloadConverter.toPayload('after the bad one')]);
    const body = JSON.stringify({ payloads: [ours, foreign, later].map((p) => toJson(p!)) });
    const res = await post('/decode', { Authorization: `Bearer ${TOKEN}` }, body);
    expect(res.status).toBe(200);
    const text = await res.text();
    const payloads = (JSON.parse(text) as { payloads: temporal.api.common.v1.IPayload[] }).payloads.map((p) =>
      temporal.api.common.v1.Payload.fromObject(p),
    );
    // Decoded payloads keep no trace of our key. (A search of the raw text for "k1" failed at
    // random: base64 ciphertext contains those two characters about one time in fifty.)
    for (const decoded of [payloads[0]!, payloads[2]!])
      expect(Object.keys(decoded.metadata ?? {})).toEqual(['encoding']);
    expect(defaultPayloadConverter.fromPayload(payloads[0]!)).toEqual({ secret: 'CODEC-SERVER-MARKER' });
    expect(toJson(payloads[1]!)).toEqual(toJson(foreign!));
    expect(defaultPayloadConverter.fromPayload(payloads[2]!)).toBe('after the bad one');
  });

  it('encodes so that its own decode reads the result back', async () => {
    const plain = JSON.stringify({ payloads: [toJson(defaultPayloadConverter.toPayload('round trip'))] });
    const encoded = await post('/encode', { Authorization: `Bearer ${TOKEN}` }, plain);
    expect(encoded.status).toBe(200);
    const encodedText = await encoded.text();
    expect(encodedText).not.toContain(Buffer.from('"round trip"').toString('base64'));
    const decoded = await post('/decode', { Authorization: `Bearer ${TOKEN}` }, encodedText);
    const [payload] = ((await decoded.json()) as { payloads: temporal.api.common.v1.IPayload[] }).payloads;
    expect(defaultPayloadConverter.fromPayload(temporal.api.common.v1.Payload.fromObject(payload!))).toBe('round trip');
  });

  it('answers a preflight from the allowed origin with CORS headers, and another origin with none', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/decode`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type,x-namespace',
        },
      });
    const allowed = await preflight(UI_ORIGIN);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(UI_ORIGIN);
    expect(allowed.headers.get('access-control-allow-methods')).toBe('POST');
    expect(allowed.headers.get('access-control-allow-headers')).toBe('Content-Type, Authorization, X-Namespace');
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');

    const other = await preflight('http://evil.example');
    expect(other.status).toBe(204);
    expect([...other.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);

    // The real call carries the origin header too, or the browser would not let the UI read it.
    const call = await post('/decode', { Authorization: `Bearer ${TOKEN}`, Origin: UI_ORIGIN });
    expect(call.headers.get('access-control-allow-origin')).toBe(UI_ORIGIN);
    const refused = await post('/decode', { Origin: UI_ORIGIN });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(UI_ORIGIN);
  });

  it('rejects bodies that are too large, not JSON, or not payloads, and unknown routes', async () => {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const huge = await post('/decode', auth, JSON.stringify({ payloads: [{ data: 'A'.repeat(70 * 1024) }] }));
    expect(huge.status).toBe(413);
    expect((await post('/decode', auth, '{not json')).status).toBe(400);
    expect((await post('/decode', auth, JSON.stringify({ items: [] }))).status).toBe(400);
    const tampered = JSON.parse(encryptedBody) as { payloads: Array<{ data: string }> };
    tampered.payloads[0]!.data = Buffer.from('x'.repeat(40)).toString('base64');
    // An altered payload fails only itself: it comes back as it was sent, still encrypted.
    const altered = await post('/decode', auth, JSON.stringify(tampered));
    expect(altered.status).toBe(200);
    expect(((await altered.json()) as { payloads: Array<{ data: string }> }).payloads[0]!.data).toBe(
      tampered.payloads[0]!.data,
    );
    expect((await post('/metrics', auth)).status).toBe(404);
    expect((await fetch(`${server.url}/decode`, { headers: auth })).status).toBe(405);
  });
});

describe('readCodecServerEnv', () => {
  const key = generateEncryptionKey('k1');

  it('refuses to start without a token, or with a short one, saying how to make one', () => {
    expect(() => readCodecServerEnv({ THOUGHTLINE_ENCRYPTION_KEYS: key })).toThrow(
      /THOUGHTLINE_CODEC_TOKEN is not set.*will not start without one.*randomBytes/,
    );
    expect(() => readCodecServerEnv({ THOUGHTLINE_ENCRYPTION_KEYS: key, THOUGHTLINE_CODEC_TOKEN: 'short' })).toThrow(
      /at least 16 characters/,
    );
    expect(() => readCodecServerEnv({ THOUGHTLINE_CODEC_TOKEN: TOKEN })).toThrow(
      /THOUGHTLINE_ENCRYPTION_KEYS is not set/,
    );
  });

  it('parses the key ring and token', () => {
    const { keys, token } = readCodecServerEnv({
      THOUGHTLINE_ENCRYPTION_KEYS: `${key},${generateEncryptionKey('k0')}`,
      THOUGHTLINE_CODEC_TOKEN: TOKEN,
    });
    expect(token).toBe(TOKEN);
    expect(keys.currentKeyId).toBe('k1');
    expect(keys.keys.size).toBe(2);
  });
});
