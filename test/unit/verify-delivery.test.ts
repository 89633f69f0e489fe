import { describe, expect, it } from 'vitest';
import { triggerTable, TriggersFile } from '../../src/server/triggers/trigger-config';
import { DELIVERY_WINDOW_MS, signDelivery, verifyDelivery } from '../../src/server/triggers/verify-delivery';

const secret = Buffer.from('whsec_unit_0123456789abcdef');
const now = 1_800_000_000_000;
const body = Buffer.from('{"a":1}');
const headersAt = (seconds: number, overrides: Record<string, string> = {}) => {
  const deliveryId = overrides['x-thoughtline-delivery'] ?? 'd-1';
  return {
    'x-thoughtline-signature': signDelivery(secret, String(seconds), deliveryId, body),
    'x-thoughtline-timestamp': String(seconds),
    'x-thoughtline-delivery': deliveryId,
    ...overrides,
  };
};

describe('verifyDelivery', () => {
  it('takes a delivery signed over timestamp + "." + delivery id + "." + body, at both edges of the window', () => {
    const edge = DELIVERY_WINDOW_MS / 1000;
    expect(verifyDelivery(secret, headersAt(now / 1000), body, now)).toEqual({ ok: true, deliveryId: 'd-1' });
    expect(verifyDelivery(secret, headersAt(now / 1000 - edge), body, now).ok).toBe(true);
    expect(verifyDelivery(secret, headersAt(now / 1000 + edge), body, now).ok).toBe(true);
    expect(verifyDelivery(secret, headersAt(now / 1000 - edge - 1), body, now).ok).toBe(false);
    expect(verifyDelivery(secret, headersAt(now / 1000 + edge + 1), body, now).ok).toBe(false);
  });

  it('refuses another body, another secret, a truncated or repeated signature, and malformed headers', () => {
    const t = now / 1000;
    expect(verifyDelivery(secret, headersAt(t), Buffer.from('{"a":2}'), now).ok).toBe(false);
    expect(verifyDelivery(Buffer.from('another-secret-0123456789'), headersAt(t), body, now).ok).toBe(false);
    const signature = signDelivery(secret, String(t), 'd-1', body);
    expect(
      verifyDelivery(secret, headersAt(t, { 'x-thoughtline-signature': signature.slice(0, -1) }), body, now).ok,
    ).toBe(false);
    expect(
      verifyDelivery(secret, { ...headersAt(t), 'x-thoughtline-signature': [signature, signature] }, body, now).ok,
    ).toBe(false);
    expect(verifyDelivery(secret, headersAt(t, { 'x-thoughtline-timestamp': `${t}.5` }), body, now).ok).toBe(false);
    expect(verifyDelivery(secret, headersAt(t, { 'x-thoughtline-delivery': 'a/b' }), body, now).ok).toBe(false);
    expect(verifyDelivery(secret, headersAt(t, { 'x-thoughtline-delivery': 'x'.repeat(129) }), body, now).ok).toBe(
      false,
    );
    // The longest id is taken; signed for one id, the same delivery under another is refused (no replay under a fresh id).
    expect(verifyDelivery(secret, headersAt(t, { 'x-thoughtline-delivery': 'x'.repeat(128) }), body, now).ok).toBe(
      true,
    );
    expect(verifyDelivery(secret, { ...headersAt(t), 'x-thoughtline-delivery': 'd-2' }, body, now)).toMatchObject({
      ok: false,
      problem: expect.stringContaining('does not match'),
    });
  });
});

describe('triggerTable', () => {
  const file = TriggersFile.parse({
    triggers: { deploys: { agent: 'triage', task: 'triage it', secretEnv: 'HOOK_SECRET' } },
  });

  it('reads each secret from its variable and attributes runs to trigger:<name> by default', () => {
    const table = triggerTable(file, { HOOK_SECRET: 'x'.repeat(16) });
    expect(table.get('deploys')).toMatchObject({ agent: 'triage', owner: { id: 'trigger:deploys' } });
  });

  it('refuses to start with a secret unset or shorter than 16 bytes, and a file with unknown fields', () => {
    expect(() => triggerTable(file, {})).toThrow('needs its secret in HOOK_SECRET');
    expect(() => triggerTable(file, { HOOK_SECRET: 'short' })).toThrow('too short');
    expect(
      TriggersFile.safeParse({ triggers: { deploys: { agent: 'a', task: 't', secretEnv: 'S', secret: 'inline' } } })
        .success,
    ).toBe(false);
  });
});
