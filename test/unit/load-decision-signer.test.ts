import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { printSigningKey } from '../../src/cli/commands/serve-and-protocols/signing-key';
import { generateSigningKey } from '../../src/server/signing/generate-signing-key';
import type { Identity } from '../../src/server/auth/identity';
import { KeyringError } from '../../src/server/signing/keyring-error';
import { loadDecisionSigner } from '../../src/server/signing/load-decision-signer';
import { verifyDecisionSignature } from '../../src/domain/approval/signed-decision';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyring-'));
let n = 0;
function keyring(content: unknown, mode = 0o600): string {
  const file = path.join(dir, `keys-${n++}.json`);
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content), { mode });
  fs.chmodSync(file, mode);
  return file;
}
const alice: Identity = { id: 'alice', roles: ['ops'], via: 'oidc' };

describe('loadDecisionSigner', () => {
  it('signs with every key (newest first), lists every public key, and sets who decided from the identity', () => {
    const newest = generateSigningKey('k2');
    const older = generateSigningKey('k1');
    const signer = loadDecisionSigner(
      keyring({
        keys: [
          { id: 'k2', privateKey: newest.privateKey },
          { id: 'k1', privateKey: older.privateKey },
        ],
      }),
    );
    expect(signer.publicKeys()).toEqual({ k2: newest.publicKey, k1: older.publicKey });

    const approval = signer.sign(
      'approval',
      'wf-1',
      { callId: 'c1', approved: true, argumentsHash: 'sha256:x', by: { id: 'mallory', roles: ['admin'] } },
      alice,
    );
    expect(approval.by).toEqual({ id: 'alice', roles: ['ops'] });
    expect((approval as { signature?: Array<{ keyId: string }> }).signature?.map((s) => s.keyId)).toEqual(['k2', 'k1']);
    expect(
      verifyDecisionSignature('approval', 'wf-1', approval, { publicKeys: signer.publicKeys() }, Date.now()),
    ).toMatchObject({ ok: true });
    // Runs started before the new key was listed (old key only) and after the old one is gone both verify.
    expect(
      verifyDecisionSignature('approval', 'wf-1', approval, { publicKeys: { k1: older.publicKey } }, Date.now()),
    ).toMatchObject({ ok: true });
    expect(
      verifyDecisionSignature('approval', 'wf-1', approval, { publicKeys: { k2: newest.publicKey } }, Date.now()),
    ).toMatchObject({ ok: true });
    // A keyring of one key signs once.
    const single = loadDecisionSigner(keyring({ keys: [{ id: 'k1', privateKey: older.privateKey }] }));
    expect(single.sign('steer', 'wf-1', { text: 'Go.', nonce: 'n1' }, alice)).toMatchObject({
      signature: { keyId: 'k1' },
    });

    const steer = signer.sign('steer', 'wf-1', { text: 'Stop.', nonce: 'n2' }, alice);
    expect(steer).toMatchObject({ text: 'Stop.', by: 'alice', roles: ['ops'] });
    expect(
      verifyDecisionSignature('steer', 'wf-1', steer, { publicKeys: signer.publicKeys() }, Date.now()),
    ).toMatchObject({ ok: true });
    const answer = signer.sign('answer', 'wf-1', { text: 'Blue.', callId: 'q1' }, alice);
    expect(
      verifyDecisionSignature('answer', 'wf-1', answer, { publicKeys: signer.publicKeys() }, Date.now()),
    ).toMatchObject({ ok: true });
  });

  it.each([
    [
      'group-readable',
      { keys: [{ id: 'k', privateKey: generateSigningKey().privateKey }] },
      0o640,
      /may be read by others \(mode 640\).*chmod 600/,
    ],
    [
      'world-readable',
      { keys: [{ id: 'k', privateKey: generateSigningKey().privateKey }] },
      0o604,
      /may be read by others/,
    ],
    ['not JSON', '{ keys', 0o600, /is not JSON/],
    ['empty', { keys: [] }, 0o600, /malformed at keys: list at least one key/],
    [
      'too long',
      { keys: Array.from({ length: 9 }, (_, i) => ({ id: `k${i}`, privateKey: generateSigningKey().privateKey })) },
      0o600,
      /list at most 8 keys/,
    ],
    ['a short key', { keys: [{ id: 'k', privateKey: 'AAAA' }] }, 0o600, /not a base64url 32-byte Ed25519 seed/],
    [
      'a duplicate id',
      {
        keys: [
          { id: 'k', privateKey: generateSigningKey().privateKey },
          { id: 'k', privateKey: generateSigningKey().privateKey },
        ],
      },
      0o600,
      /lists the key id "k" twice/,
    ],
  ])('refuses a keyring that is %s', (_name, content, mode, message) => {
    const file = keyring(content, mode);
    expect(() => loadDecisionSigner(file)).toThrow(KeyringError);
    expect(() => loadDecisionSigner(file)).toThrow(message);
  });

  it('refuses a missing file with its path', () => {
    expect(() => loadDecisionSigner(path.join(dir, 'absent.json'))).toThrow(
      /Cannot read the signing keyring .*absent\.json/,
    );
  });
});

describe('signing-key (the command)', () => {
  it('prints one keyring entry on stdout that loads as a keyring, and its public key on stderr', () => {
    const out: string[] = [];
    const err: string[] = [];
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
    try {
      expect(printSigningKey({ id: 'k2027-02' })).toBe(0);
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
    }
    const entry = JSON.parse(out.join('')) as { id: string; privateKey: string };
    expect(Object.keys(entry)).toEqual(['id', 'privateKey']);
    const signer = loadDecisionSigner(keyring({ keys: [entry] }));
    expect(err.join('')).toContain(`public key ${signer.publicKeys()['k2027-02']}`);
    expect(generateSigningKey().id).toMatch(/^k\d{4}-\d{2}-\d{2}-[0-9a-f]{4}$/);
  });
});
